/**
 * Labels a page's island learns after the page was rendered (a meter's number, where the URL has only its internal
 * id), for the shell's breadcrumbs. The islands share this module, so a label set by one shows in the other.
 */
import { useSyncExternalStore } from 'react';

let labels: ReadonlyMap<string, string> = new Map();
const listeners = new Set<() => void>();

/** Sets the label of the crumb with this key (AppLayout's crumb keys, e.g. `meter:{id}`). */
export function setCrumbLabel(key: string, label: string): void {
  if (labels.get(key) === label) return;
  labels = new Map(labels).set(key, label);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The labels set so far, by crumb key. */
export function useCrumbLabels(): ReadonlyMap<string, string> {
  return useSyncExternalStore(
    subscribe,
    () => labels,
    () => labels,
  );
}

/** The crumbs with any label set for their key. */
export function withCrumbLabels<C extends { key: string; label: string }>(
  crumbs: readonly C[],
  set: ReadonlyMap<string, string>,
): C[] {
  return crumbs.map((c) => {
    const label = set.get(c.key);
    return label ? { ...c, label } : c;
  });
}
