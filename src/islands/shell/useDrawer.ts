/**
 * The side menu as a drawer below 1280 px (SPEC §4): while open it is modal (body scroll locked, Escape closes,
 * Tab stays inside, what lies under it inert), and focus moves into it and back to its opener.
 */
import { useEffect, useRef, useState } from 'react';

/** Whether the drawer is open, and the setter; the effects of an open drawer apply while it is. */
export function useDrawer(): [boolean, (open: boolean) => void] {
  const [menuOpen, setMenuOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    // SPEC §4: body scroll is locked while the drawer is open below 1280 px (CSS applies the width rule).
    document.body.classList.toggle('menu-open', menuOpen);
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
      else if (e.key === 'Tab') keepTabInside(document.getElementById('app-menu'), e);
    };
    window.addEventListener('keydown', onKey);
    // The open drawer is modal: what lies under it leaves the tab order and the accessibility tree.
    const under = UNDER_DRAWER.flatMap((selector) => [...document.querySelectorAll<HTMLElement>(selector)]);
    for (const el of under) el.inert = true;
    return () => {
      window.removeEventListener('keydown', onKey);
      for (const el of under) el.inert = false;
    };
  }, [menuOpen]);

  // Focus moves into the drawer when it opens, and back to the button that opened it when it closes.
  useEffect(() => {
    if (menuOpen) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      document.querySelector<HTMLElement>('#app-menu .drawer-close')?.focus();
    } else if (opener.current) {
      opener.current.focus();
      opener.current = null;
    }
  }, [menuOpen]);

  return [menuOpen, setMenuOpen];
}

/** What the open drawer covers: the page, the header, the skip link and the cookie banner. */
const UNDER_DRAWER = ['#main', '.app-header', '.skip-link', '#cookie-consent'];

/** Tab and Shift+Tab wrap around inside the container instead of leaving it. */
function keepTabInside(container: HTMLElement | null, e: KeyboardEvent): void {
  if (!container) return;
  const stops = [...container.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')].filter(
    (el) => el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]'),
  );
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !container.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !container.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}
