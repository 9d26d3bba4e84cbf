/**
 * The console's bulk invitation (issue 21): a CSV of tenancy and email, sent once; a refused file comes back
 * with its problems (nothing was created), an accepted one with its delivery report. The request is provided
 * by the island (`send`).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';

interface BulkProblem {
  line: number;
  message: string;
}
export interface BulkAnswer<R> {
  problems: BulkProblem[];
  report: R | null;
}

export function createBulkInviteMachine<R>() {
  return setup({
    types: {
      context: {} as { csv: string; problems: BulkProblem[]; report: R | null; error: string | null },
      events: {} as { type: 'csv.change'; value: string } | { type: 'submit' } | { type: 'again' },
    },
    actors: {
      send: fromPromise<BulkAnswer<R>, { csv: string }>(async () => {
        throw new Error('send is not provided');
      }),
    },
    guards: {
      hasCsv: ({ context }) => context.csv.trim() !== '',
      refused: ({ event }) => ((event as { output?: BulkAnswer<R> }).output?.problems.length ?? 0) > 0,
    },
    actions: {
      change: assign(({ event }) => {
        assertEvent(event, 'csv.change');
        return { csv: event.value, problems: [], error: null };
      }),
      keepAnswer: assign(({ event }) => {
        const output = (event as { output?: BulkAnswer<R> }).output!;
        return { problems: output.problems, report: output.report };
      }),
      failed: assign({
        error: ({ event }) => ((event as { error?: unknown }).error as Error)?.message ?? 'UNKNOWN',
      }),
      empty: assign({ error: 'EMPTY_FILE' }),
      clear: assign({ csv: '', problems: [], report: null, error: null }),
    },
  }).createMachine({
    id: 'bulkInvite',
    context: { csv: '', problems: [], report: null, error: null },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'csv.change': { actions: 'change' },
          submit: [{ guard: 'hasCsv', target: 'sending' }, { actions: 'empty' }],
        },
      },
      sending: {
        invoke: {
          id: 'send',
          src: 'send',
          input: ({ context }) => ({ csv: context.csv }),
          onDone: [
            { guard: 'refused', target: 'editing', actions: 'keepAnswer' },
            { target: 'reported', actions: 'keepAnswer' },
          ],
          onError: { target: 'editing', actions: 'failed' },
        },
      },
      reported: {
        on: { again: { target: 'editing', actions: 'clear' } },
      },
    },
  });
}
