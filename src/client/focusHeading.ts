/** Where keyboard focus goes when the control that had it disappears: the page's main heading. */

/** Focuses the page's first h1 (made focusable by script only), or the main landmark; false when neither exists. */
export function focusPageHeading(): boolean {
  const target =
    document.querySelector<HTMLElement>('main h1') ??
    document.querySelector<HTMLElement>('h1') ??
    document.querySelector<HTMLElement>('main');
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
  return true;
}
