/** Alarm queries (tenant backend): the list, one alarm, and the values of recent periods (hints and graphs). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type AlarmFieldsFragment,
  type AlarmFrequency,
  type AlarmType,
  type AlarmValuesInput,
  type AlarmValuesQuery,
  AlarmDocument as alarmDocument,
  AlarmsDocument as alarmsDocument,
  AlarmValuesDocument as alarmValuesDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

export type { AlarmValuesInput };
export type AlarmTypeName = AlarmType;
export type AlarmFrequencyName = AlarmFrequency;

/** An alarm as the pages use it (AlarmFields in alarmFields.graphql). */
export type Alarm = AlarmFieldsFragment;

/** The caller's alarms on a tenancy. */
export function alarmsQueryOptions(tenancyId: string) {
  return queryOptions({
    queryKey: ['alarms', tenancyId],
    queryFn: async () => (await authorizedRequest('tenant', alarmsDocument, { tenancyId })).alarms,
  });
}

/** The alarm list; no fetch without a tenancy. */
export function useAlarms(tenancyId: string | null) {
  return useQuery({ ...alarmsQueryOptions(tenancyId ?? ''), enabled: tenancyId !== null });
}

/** One alarm. */
export function alarmQueryOptions(tenancyId: string, id: string) {
  return queryOptions({
    queryKey: ['alarms', tenancyId, id],
    queryFn: async () => (await authorizedRequest('tenant', alarmDocument, { tenancyId, id })).alarm,
  });
}

/** One alarm; no fetch without a tenancy and id. */
export function useAlarm(tenancyId: string | null, id: string | null) {
  return useQuery({
    ...alarmQueryOptions(tenancyId ?? '', id ?? ''),
    enabled: tenancyId !== null && id !== null,
  });
}

export type AlarmPeriodValue = AlarmValuesQuery['alarmValues'][number];

/** Values of the latest complete periods. */
function alarmValuesQueryOptions(input: AlarmValuesInput) {
  return queryOptions({
    queryKey: ['alarmValues', input],
    queryFn: async () => (await authorizedRequest('tenant', alarmValuesDocument, { input })).alarmValues,
  });
}

/** Values of the latest complete periods, once the input is known. */
export function useAlarmValues(input: AlarmValuesInput | null) {
  return useQuery({
    ...alarmValuesQueryOptions(input ?? ({} as AlarmValuesInput)),
    enabled: input !== null,
  });
}
