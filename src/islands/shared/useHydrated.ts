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

/**
 * What a person typed into the server-rendered field `id` before the island hydrated ('' on the server, and when
 * nothing was typed): the initial state of that field's controlled value. Without it React's hydration put the
 * field back to its state, and the typed text was gone (measured: an email typed while the island's script was
 * 1.5 s away read '' once hydrated). Read while hydrating, before React's commit writes the field.
 */
export function typedBeforeHydration(id: string): string {
  if (typeof document === 'undefined') return '';
  const field = document.getElementById(id);
  return field instanceof HTMLInputElement ? field.value : '';
}
