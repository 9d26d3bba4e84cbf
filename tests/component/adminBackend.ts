/**
 * The admin backend of the component tests: `adminRequest` answered per GraphQL document by the test, every call
 * recorded. Test files mock src/client/admin/session.ts and useOperator.ts with it (see AuditLog.test.tsx).
 */
export const calls: { document: unknown; variables: unknown }[] = [];
export const answers = new Map<unknown, (variables: never) => unknown>();

export async function adminRequest(document: unknown, variables: never): Promise<unknown> {
  calls.push({ document, variables });
  const answer = answers.get(document);
  if (!answer) throw new Error('UNEXPECTED_DOCUMENT');
  return answer(variables);
}

/** The signed-in operator the islands see. */
export const useOperator = () => ({ id: '1', email: 'admin@demo.test', role: 'ORGANISATION_ADMIN' });

/** The variables of the newest call with this document. */
export function lastVariables<V>(document: unknown): V {
  return calls.filter((c) => c.document === document).at(-1)!.variables as V;
}

export function resetBackend(): void {
  calls.length = 0;
  answers.clear();
}
