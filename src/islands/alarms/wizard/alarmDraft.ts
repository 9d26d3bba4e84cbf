/** The wizard's draft and the API's alarm, each way: an alarm to edit as a draft, a finished draft as AlarmInput. */
import type { AlarmInput } from '../../../client/gql/tenant.ts';
import type { Alarm, AlarmFrequencyName, AlarmTypeName } from '../../../client/operations/alarmQueries.ts';
import type { AlarmDraft, AlarmType } from '../../../machines/alarmWizard.machine.ts';

/** The water quantities, where a zero-consumption alarm may also watch for a leak. */
const WATER = ['cold-water-volume', 'hot-water-volume', 'total-water-volume'];

/** Whether the draft is a zero-consumption alarm on water, which may carry the leak rule. */
export function canHaveLeakRule(draft: Pick<AlarmDraft, 'type' | 'quantity'>): boolean {
  return draft.type === 'zero_consumption' && WATER.includes(draft.quantity ?? '');
}

/** The draft of an alarm being edited. */
export function draftOf(alarm: Alarm): Partial<AlarmDraft> {
  return {
    type: alarm.type.toLowerCase() as AlarmType,
    quantity: alarm.quantity as AlarmDraft['quantity'],
    frequency: alarm.frequency.toLowerCase() as AlarmDraft['frequency'],
    threshold: alarm.threshold,
    minimum: alarm.minimum,
    maximum: alarm.maximum,
  };
}

/** The alarm to save from a finished draft: the limits its type uses, the rest null; the leak rule on water only. */
export function alarmInputOf(draft: AlarmDraft, leakRule: boolean, enabled: boolean): AlarmInput {
  const climate = draft.type === 'indoor_climate';
  return {
    type: draft.type!.toUpperCase() as AlarmTypeName,
    quantity: draft.quantity!,
    frequency: draft.frequency!.toUpperCase() as AlarmFrequencyName,
    threshold: climate ? null : draft.threshold,
    minimum: climate ? draft.minimum : null,
    maximum: climate ? draft.maximum : null,
    leakRule: canHaveLeakRule(draft) && leakRule,
    enabled,
  };
}
