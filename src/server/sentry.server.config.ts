/** Server error reporting; astro.config.mjs loads this only when PUBLIC_SENTRY_DSN is set. */
import * as Sentry from '@sentry/astro';
import { scrubEvent } from '../lib/privacyScrub.ts';

Sentry.init({
  dsn: process.env.PUBLIC_SENTRY_DSN,
  sendDefaultPii: false,
  beforeSend: (event) => scrubEvent(event),
});
