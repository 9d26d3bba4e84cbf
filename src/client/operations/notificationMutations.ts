/** Notification mutations (tenant backend): mark one read or unread, mark all read. */

import { useMutation } from '@tanstack/react-query';
import {
  MarkAllNotificationsReadDocument as markAllNotificationsReadDocument,
  MarkNotificationReadDocument as markNotificationReadDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import { notificationsQueryOptions } from './notificationQueries.ts';

const invalidate = (tenancyId: string) =>
  queryClient.invalidateQueries({ queryKey: notificationsQueryOptions(tenancyId).queryKey });

/** Marks one notification read (or unread). */
export function useMarkNotificationRead(tenancyId: string) {
  return useMutation({
    mutationFn: async ({ id, read }: { id: string; read: boolean }) => {
      await authorizedRequest('tenant', markNotificationReadDocument, { tenancyId, id, read });
      await invalidate(tenancyId);
    },
  });
}

/** Marks every notification of the tenancy read. */
export function useMarkAllNotificationsRead(tenancyId: string) {
  return useMutation({
    mutationFn: async () => {
      await authorizedRequest('tenant', markAllNotificationsReadDocument, { tenancyId });
      await invalidate(tenancyId);
    },
  });
}
