/** The console islands' view of the operator session. */
import { useSelector } from '@xstate/react';
import { getOperatorSession } from '../../client/admin/session.ts';
import type { OperatorProfile } from '../../machines/operatorSession.machine.ts';

/** The signed-in operator, or null until the session has one; queries wait for it. */
export function useOperator(): OperatorProfile | null {
  return useSelector(getOperatorSession(), (s) => (s.matches('loggedIn') ? s.context.operator : null));
}
