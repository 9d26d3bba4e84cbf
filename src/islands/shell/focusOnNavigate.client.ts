/**
 * After a soft navigation (Astro's ClientRouter) focus would fall to the page body, and a keyboard or screen
 * reader user would start again from the top: it moves to the new page's heading instead. A swap that keeps the
 * path (a language switch, a period in the query) leaves focus where it is when that control is still there.
 */
import { focusPageHeading } from '../../client/focusHeading.ts';

let lastPath = window.location.pathname;
document.addEventListener('astro:page-load', () => {
  const path = window.location.pathname;
  const samePage = path === lastPath;
  lastPath = path;
  const active = document.activeElement;
  if (samePage && active && active !== document.body && active.isConnected) return;
  // The first load is not a navigation: focus stays where the browser put it.
  if (!navigated) return;
  focusPageHeading();
});
let navigated = false;
document.addEventListener('astro:after-swap', () => {
  navigated = true;
});
