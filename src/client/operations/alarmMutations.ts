/** Alarm mutations (tenant backend): create, update, delete; each invalidates the tenancy's alarm queries. */
import { useMutation } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import {
  ALARM_FIELDS,
  type Alarm,
  type AlarmFrequencyName,
  type AlarmTypeName,
  alarmsQueryOptions,
} from './alarmQueries.ts';

export type AlarmInput = {
  type: AlarmTypeName;
  quantity: string;
  frequency: AlarmFrequencyName;
  threshold?: number | null;
  minimum?: number | null;
  maximum?: number | null;
  leakRule?: boolean;
  enabled?: boolean;
};

export const createAlarmDocument = gql`
  mutation CreateAlarm($tenancyId: ID!, $alarm: AlarmInput!) {
    createAlarm(tenancyId: $tenancyId, alarm: $alarm) { ${ALARM_FIELDS} }
  }
`;
export const updateAlarmDocument = gql`
  mutation UpdateAlarm($tenancyId: ID!, $id: ID!, $alarm: AlarmInput!) {
    updateAlarm(tenancyId: $tenancyId, id: $id, alarm: $alarm) { ${ALARM_FIELDS} }
  }
`;
export const deleteAlarmDocument = gql`
  mutation DeleteAlarm($tenancyId: ID!, $id: ID!) {
    deleteAlarm(tenancyId: $tenancyId, id: $id) { ok }
  }
`;

const invalidate = (tenancyId: string) =>
  queryClient.invalidateQueries({ queryKey: alarmsQueryOptions(tenancyId).queryKey });

/** Creates an alarm (or updates one, with `id`). */
export async function saveAlarm(tenancyId: string, alarm: AlarmInput, id?: string): Promise<Alarm> {
  const saved = id
    ? (
        await authorizedRequest<{ updateAlarm: Alarm }>('tenant', updateAlarmDocument, {
          tenancyId,
          id,
          alarm,
        })
      ).updateAlarm
    : (await authorizedRequest<{ createAlarm: Alarm }>('tenant', createAlarmDocument, { tenancyId, alarm }))
        .createAlarm;
  await invalidate(tenancyId);
  return saved;
}

/** Switches an alarm on or off, keeping the rest. */
export function useToggleAlarm(tenancyId: string) {
  return useMutation({
    mutationFn: (alarm: Alarm) =>
      saveAlarm(
        tenancyId,
        {
          type: alarm.type,
          quantity: alarm.quantity,
          frequency: alarm.frequency,
          threshold: alarm.threshold,
          minimum: alarm.minimum,
          maximum: alarm.maximum,
          leakRule: alarm.leakRule,
          enabled: !alarm.enabled,
        },
        alarm.id,
      ),
  });
}

/** Deletes an alarm. */
export function useDeleteAlarm(tenancyId: string) {
  return useMutation({
    mutationFn: async (id: string) => {
      await authorizedRequest('tenant', deleteAlarmDocument, { tenancyId, id });
      await invalidate(tenancyId);
    },
  });
}
