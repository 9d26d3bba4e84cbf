/** Alarm queries (tenant backend): the list, one alarm, and the values of recent periods (hints and graphs). */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  AlarmDocument as alarmDocument,
  AlarmsDocument as alarmsDocument,
  AlarmValuesDocument as alarmValuesDocument,
} from '../gql/tenant.ts';
import { authorizedRequest } from '../graphql.ts';

export type AlarmTypeName = 'THRESHOLD' | 'COMPARISON' | 'ZERO_CONSUMPTION' | 'INDOOR_CLIMATE';
export type AlarmFrequencyName = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

/** One evaluated period. */
type AlarmEvaluation = {
  periodStart: string;
  periodEnd: string;
  state: 'OK' | 'FIRED' | 'UNKNOWN';
  value: number | null;
  reference: number | null;
  reason: string | null;
  evaluatedAt: string;
};

/** An alarm as the pages use it. */
export type Alarm = {
  id: string;
  tenancyId: string;
  type: AlarmTypeName;
  quantity: string;
  frequency: AlarmFrequencyName;
  threshold: number | null;
  minimum: number | null;
  maximum: number | null;
  leakRule: boolean;
  enabled: boolean;
  status: 'OK' | 'TRIGGERED' | 'OFF';
  lastFired: AlarmEvaluation | null;
  history: AlarmEvaluation[];
  createdAt: string;
};

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

export type AlarmValuesInput = {
  tenancyId: string;
  type: AlarmTypeName;
  quantity: string;
  frequency: AlarmFrequencyName;
  count: number;
};

export type AlarmPeriodValue = { periodStart: string; periodEnd: string; value: number | null };

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
