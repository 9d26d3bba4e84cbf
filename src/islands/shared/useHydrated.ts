/**
 * False in the server-rendered HTML and the first render, true once the island's script runs. A form rendered on
 * the server keeps its submit button disabled until then: the browser's implicit submission (Enter) does nothing
 * while the default button is disabled, so no field ever lands in a URL through a native GET.
 */
import { useEffect, useState } from 'react';

/** Whether the island has hydrated. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
