import { assign, setup } from 'xstate';
import { CONSENT_COOKIE } from '../lib/consentCookie.ts';

/** One year in seconds. */
const CONSENT_MAX_AGE = 31_536_000;

/** The Set-Cookie / document.cookie string for an answer: SameSite=None and Secure, one year (SPEC §9). */
export function consentCookie(accepted: boolean): string {
  return `${CONSENT_COOKIE}=${accepted}; Max-Age=${CONSENT_MAX_AGE}; Path=/; SameSite=None; Secure`;
}

/** The analytics data-layer entry pushed on an answer (SPEC §4). */
function consentDataLayerEvent(accepted: boolean): { event: 'cookieConsent'; hasAccepted: boolean } {
  return { event: 'cookieConsent', hasAccepted: accepted };
}

/** Cookie-consent banner: not answered (shown) until accepted or rejected, then answered (hidden). */
export const cookieConsentMachine = setup({
  types: {
    context: {} as { accepted: boolean | null },
    input: {} as { accepted: boolean | null } | undefined,
    events: {} as { type: 'consent.accept' } | { type: 'consent.reject' },
  },
  actions: {
    // Effects: the app provides these (document.cookie, window.dataLayer); tests supply spies.
    writeCookie: (_, _params: { cookie: string }) => {},
    pushToDataLayer: (_, _params: { event: 'cookieConsent'; hasAccepted: boolean }) => {},
    remember: assign((_, params: { accepted: boolean }) => ({ accepted: params.accepted })),
  },
  guards: {
    wasAnswered: ({ context }) => context.accepted !== null,
  },
}).createMachine({
  id: 'cookieConsent',
  context: ({ input }) => ({ accepted: input?.accepted ?? null }),
  initial: 'notAnswered',
  states: {
    notAnswered: {
      always: { guard: 'wasAnswered', target: 'answered' },
      on: {
        'consent.accept': {
          target: 'answered',
          actions: [
            { type: 'remember', params: { accepted: true } },
            { type: 'writeCookie', params: { cookie: consentCookie(true) } },
            { type: 'pushToDataLayer', params: consentDataLayerEvent(true) },
          ],
        },
        'consent.reject': {
          target: 'answered',
          actions: [
            { type: 'remember', params: { accepted: false } },
            { type: 'writeCookie', params: { cookie: consentCookie(false) } },
            { type: 'pushToDataLayer', params: consentDataLayerEvent(false) },
          ],
        },
      },
    },
    answered: {},
  },
});
