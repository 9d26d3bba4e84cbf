/** Notification mutations (tenant backend): mark one read or unread, mark all read. */
import { useMutation } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import { notificationsQueryOptions } from './notificationQueries.ts';

export const markNotificationReadDocument = gql`
  mutation MarkNotificationRead($tenancyId: ID!, $id: ID!, $read: Boolean) {
    markNotificationRead(tenancyId: $tenancyId, id: $id, read: $read) { id read }
  }
`;
export const markAllNotificationsReadDocument = gql`
  mutation MarkAllNotificationsRead($tenancyId: ID!) {
    markAllNotificationsRead(tenancyId: $tenancyId) { ok count }
  }
`;

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
