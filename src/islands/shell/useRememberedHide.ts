/** What the side menu last saw of each tenancy's notifications entry, kept in browser storage for the next page load. */
import { useEffect, useState } from 'react';
import { browserStorage, readString, writeString } from '../../client/storage.ts';

/** Tenancy ids → whether their property hides the notifications entry, as the menu last saw it. */
const HIDES_NOTIFICATIONS_KEY = 'menuHidesNotifications';

function readRememberedHides(): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(readString(browserStorage(), HIDES_NOTIFICATIONS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/** What the menu saw last time for this tenancy (undefined: never), and keeps what it knows now. */
export function useRememberedHide(tenancyId: string, known: boolean | undefined): boolean | undefined {
  const [remembered] = useState(() => {
    const value = readRememberedHides()[tenancyId];
    return typeof value === 'boolean' ? value : undefined;
  });
  useEffect(() => {
    if (known === undefined) return;
    const all = readRememberedHides();
    if (all[tenancyId] === known) return;
    writeString(browserStorage(), HIDES_NOTIFICATIONS_KEY, JSON.stringify({ ...all, [tenancyId]: known }));
  }, [tenancyId, known]);
  return remembered;
}
