/**
 * The tenant app's backends in the component tests: `fetch` answered per GraphQL document by the test, at the
 * network, so the islands' own operations (src/client/operations) build and send every request; each call is
 * recorded with its backend path and variables. The session is a fixed snapshot (useSession is mocked with it,
 * see Dashboard.test.tsx), and the access token a constant.
 */
import { vi } from 'vitest';
import { configureAuth } from '../../src/client/graphql.ts';

/** A refusal as the backends send it: a message and `extensions.code`. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export const calls: { path: string; document: string; variables: Record<string, unknown> }[] = [];
/** Per document: the `data` to answer; a thrown Error becomes a GraphQL error (a Refusal with its code). */
export const answers = new Map<unknown, (variables: never) => unknown>();

configureAuth({ accessToken: async () => 'test-token', unauthorized: () => {} });

vi.stubGlobal(
  'fetch',
  vi.fn(async (path: string, init: { body: string }) => {
    const { query, variables } = JSON.parse(init.body) as {
      query: string;
      variables: Record<string, unknown>;
    };
    calls.push({ path, document: query, variables });
    const answer = [...answers].find(([document]) => String(document) === query)?.[1];
    if (!answer) return Response.json({ errors: [{ message: 'UNEXPECTED_DOCUMENT' }] }, { status: 500 });
    try {
      return Response.json({ data: await answer(variables as never) });
    } catch (error) {
      const { message } = error as Error;
      const extensions = error instanceof Refusal ? { code: error.code } : undefined;
      return Response.json({ errors: [{ message, extensions }] });
    }
  }),
);

/** The calls made with one document. */
export function callsOf(document: unknown): { path: string; variables: Record<string, unknown> }[] {
  return calls.filter((c) => c.document === String(document));
}

export function resetBackend(): void {
  calls.length = 0;
  answers.clear();
}

/** The session snapshot the islands read through useSession: a logged-in user with one selected tenancy. */
export const session = {
  tenancy: {
    id: '11',
    apartment: { uniqueId: 'U-5' },
    meterUnits: [{ kind: 'energy' }],
    dataAvailability: { start: '2024-01-01' },
  } as Record<string, unknown>,
  isReady: true,
};

export function useSession<T>(select: (snapshot: never) => T): T {
  const snapshot = {
    matches: () => session.isReady,
    context: {
      user: { id: '3' },
      selectedTenancyId: session.tenancy.id,
      tenancies: [session.tenancy],
    },
  };
  return select(snapshot as never);
}
