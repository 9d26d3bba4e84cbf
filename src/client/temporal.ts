/**
 * `temporal-polyfill` for the browser build (astro.config.mjs points client imports of the package here).
 * The polyfill itself already uses the browser's own Temporal when there is one (Chromium 144+, Firefox 139+);
 * this module goes one step further and does not even download it then. Browsers without Temporal load the
 * polyfill (about 20 KB gzipped) with one extra request before the modules that need it run (top-level await).
 * The server and the tests import the real package; nothing changes for them. Client code imports only
 * `Temporal` from the package (a build that wants more fails, it does not silently get less).
 */
import type * as Polyfill from 'temporal-polyfill';

const native = (globalThis as { Temporal?: typeof Polyfill.Temporal }).Temporal;
const loaded = native ? null : await import('temporal-polyfill');

export const Temporal: typeof Polyfill.Temporal = native ?? loaded!.Temporal;
