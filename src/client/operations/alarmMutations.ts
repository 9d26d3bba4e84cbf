/** Alarm mutations (tenant backend): create, update, delete; each invalidates the tenancy's alarm queries. */

import { useMutation } from '@tanstack/react-query';
import {
  type AlarmInput,
  CreateAlarmDocument as createAlarmDocument,
  DeleteAlarmDocument as deleteAlarmDocument,
  UpdateAlarmDocument as updateAlarmDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import { type Alarm, alarmQueryOptions, alarmsQueryOptions } from './alarmQueries.ts';

const invalidate = (tenancyId: string) =>
  queryClient.invalidateQueries({ queryKey: alarmsQueryOptions(tenancyId).queryKey });

/** Creates an alarm (or updates one, with `id`). */
export async function saveAlarm(tenancyId: string, alarm: AlarmInput, id?: string): Promise<Alarm> {
  const saved = id
    ? (
        await authorizedRequest('tenant', updateAlarmDocument, {
          tenancyId,
          id,
          alarm,
        })
      ).updateAlarm
    : (await authorizedRequest('tenant', createAlarmDocument, { tenancyId, alarm })).createAlarm;
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

/**
 * Deletes an alarm. The caller leaves the alarm's page first and then calls `forget`: refetching a deleted
 * alarm would get the FORBIDDEN answer every unknown id gets, which ends the session (SPEC §8).
 */
export function useDeleteAlarm(tenancyId: string) {
  const mutation = useMutation({
    mutationFn: async (id: string) => {
      await authorizedRequest('tenant', deleteAlarmDocument, { tenancyId, id });
    },
  });
  const forget = (id: string) => {
    queryClient.removeQueries({ queryKey: alarmQueryOptions(tenancyId, id).queryKey, exact: true });
    return queryClient.invalidateQueries({ queryKey: alarmsQueryOptions(tenancyId).queryKey, exact: true });
  };
  return { ...mutation, forget };
}
