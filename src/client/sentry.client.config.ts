/** Browser error reporting; astro.config.mjs loads this only when PUBLIC_SENTRY_DSN is set. */
import * as Sentry from '@sentry/astro';
import { SENTRY_SAMPLE_RATES, scrubEvent } from '../lib/privacyScrub.ts';

Sentry.init({
  dsn: import.meta.env.PUBLIC_SENTRY_DSN,
  sendDefaultPii: false,
  ...SENTRY_SAMPLE_RATES,
  // Replays mask every text and input and block media, so no consumption or address is recorded.
  integrations: [Sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true })],
  beforeSend: (event) => scrubEvent(event),
  beforeBreadcrumb: (crumb) => scrubEvent({ breadcrumbs: [crumb] }).breadcrumbs?.[0] ?? null,
});
