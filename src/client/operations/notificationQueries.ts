/** Notification queries (tenant backend): the list with the unread count (the menu badge), and one notification. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type NotificationFieldsFragment,
  NotificationDocument as notificationDocument,
  NotificationsDocument as notificationsDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

/** A notification as the pages use it (NotificationFields in alarmFields.graphql). */
export type Notification = NotificationFieldsFragment;

/** The caller's notifications on a tenancy, newest first. */
export function notificationsQueryOptions(tenancyId: string) {
  return queryOptions({
    queryKey: ['notifications', tenancyId],
    queryFn: async () =>
      (
        await authorizedRequest('tenant', notificationsDocument, {
          tenancyId,
        })
      ).notifications,
  });
}

/** The notification list; no fetch without a tenancy. */
export function useNotifications(tenancyId: string | null) {
  return useQuery({ ...notificationsQueryOptions(tenancyId ?? ''), enabled: tenancyId !== null });
}

/** One notification. */
export function useNotification(tenancyId: string | null, id: string | null) {
  return useQuery({
    queryKey: ['notifications', tenancyId, id],
    queryFn: async () =>
      // Runs only when both are known (enabled below).
      (
        await authorizedRequest('tenant', notificationDocument, {
          tenancyId: tenancyId ?? '',
          id: id ?? '',
        })
      ).notification,
    enabled: tenancyId !== null && id !== null,
  });
}
