/** Subscribes a component to the page's session actor. */
import { useSelector } from '@xstate/react';
import { getSessionActor, type SessionSnapshot } from '../../client/session.ts';

/** A value derived from the session snapshot; re-renders only when it changes. */
export function useSession<T>(
  select: (snapshot: SessionSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(getSessionActor(), select, compare);
}
