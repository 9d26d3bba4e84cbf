import { useEffect, useRef } from 'react';
import { getSessionActor } from '../../client/session.ts';
import { debugPress } from '../../lib/shellRules.ts';

/** SPEC §2 debug: Ctrl+S three times within 2 s logs the session state (tokens left out) to the console. */
export function useDebugDump(pathname: string) {
  const presses = useRef<number[]>([]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      const next = debugPress(presses.current, performance.now());
      presses.current = next.presses;
      if (!next.dump) return;
      const snapshot = getSessionActor().getSnapshot();
      const { tokens: _tokens, ...context } = snapshot.context as typeof snapshot.context & {
        tokens?: unknown;
      };
      console.log('[debug] app state', { state: snapshot.value, pathname, context });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pathname]);
}
