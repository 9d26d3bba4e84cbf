/**
 * The console's change of tenant (issue 21): the current tenancy's last day and, optionally, on-site meter
 * readings; then, optionally, the new tenancy from the next day. The requests are provided by the island
 * (`moveOut`, `moveIn`); an error keeps the form with the backend's code.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';

export interface MoveOutRequest {
  tenancyId: string;
  lastDay: string;
  readings: { meterNumber: string; value: string }[];
}
export interface MoveInRequest {
  apartmentId: string;
  reference: string;
  tenant: string;
  firstDay: string;
}

type Field = 'lastDay' | 'reference' | 'tenant' | 'firstDay';

/** The day after an ISO date (the new tenancy's first day). */
function dayAfter(iso: string): string {
  const d = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const moveTenantMachine = setup({
  types: {
    context: {} as {
      tenancyId: string;
      apartmentId: string;
      lastDay: string;
      readings: Record<string, string>;
      reference: string;
      tenant: string;
      firstDay: string;
      error: string | null;
    },
    input: {} as { tenancyId: string; apartmentId: string; lastDay?: string },
    events: {} as
      | { type: 'field.change'; field: Field; value: string }
      | { type: 'reading.change'; meterNumber: string; value: string }
      | { type: 'submit' }
      | { type: 'skip' }
      | { type: 'cancel' },
  },
  actors: {
    moveOut: fromPromise<unknown, MoveOutRequest>(async () => {
      throw new Error('moveOut is not provided');
    }),
    moveIn: fromPromise<unknown, MoveInRequest>(async () => {
      throw new Error('moveIn is not provided');
    }),
  },
  guards: {
    lastDayValid: ({ context }) => ISO_DAY.test(context.lastDay),
    moveInValid: ({ context }) => ISO_DAY.test(context.firstDay) && context.reference.trim() !== '',
  },
  actions: {
    change: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      const next = { ...context, [event.field]: event.value, error: null };
      if (event.field === 'lastDay') next.firstDay = dayAfter(event.value);
      return next;
    }),
    changeReading: assign(({ context, event }) => {
      assertEvent(event, 'reading.change');
      return { readings: { ...context.readings, [event.meterNumber]: event.value }, error: null };
    }),
    invalid: assign({ error: 'BAD_USER_INPUT' }),
    failed: assign({
      error: ({ event }) => ((event as { error?: unknown }).error as Error)?.message ?? 'UNKNOWN',
    }),
  },
}).createMachine({
  id: 'moveTenant',
  context: ({ input }) => ({
    tenancyId: input.tenancyId,
    apartmentId: input.apartmentId,
    lastDay: input.lastDay ?? '',
    readings: {},
    reference: '',
    tenant: '',
    firstDay: input.lastDay ? dayAfter(input.lastDay) : '',
    error: null,
  }),
  initial: 'movingOut',
  states: {
    movingOut: {
      on: {
        'field.change': { actions: 'change' },
        'reading.change': { actions: 'changeReading' },
        submit: [{ guard: 'lastDayValid', target: 'savingMoveOut' }, { actions: 'invalid' }],
        cancel: 'cancelled',
      },
    },
    savingMoveOut: {
      invoke: {
        id: 'moveOut',
        src: 'moveOut',
        input: ({ context }) => ({
          tenancyId: context.tenancyId,
          lastDay: context.lastDay,
          readings: Object.entries(context.readings)
            .filter(([, v]) => v.trim() !== '')
            .map(([meterNumber, value]) => ({ meterNumber, value: value.trim() })),
        }),
        onDone: 'movingIn',
        onError: { target: 'movingOut', actions: 'failed' },
      },
    },
    movingIn: {
      on: {
        'field.change': { actions: 'change' },
        submit: [{ guard: 'moveInValid', target: 'savingMoveIn' }, { actions: 'invalid' }],
        skip: 'done',
      },
    },
    savingMoveIn: {
      invoke: {
        id: 'moveIn',
        src: 'moveIn',
        input: ({ context }) => ({
          apartmentId: context.apartmentId,
          reference: context.reference.trim(),
          tenant: context.tenant.trim(),
          firstDay: context.firstDay,
        }),
        onDone: 'done',
        onError: { target: 'movingIn', actions: 'failed' },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
