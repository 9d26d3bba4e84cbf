/**
 * The consent banner's only script: the cookieConsent machine on a plain actor (no React), the cookie and
 * data-layer effects, and the tag manager, which loads only after consent and only when configured.
 */
import { createActor } from 'xstate';
import { cookieConsentMachine, parseConsentCookie } from '../../machines/cookieConsent.machine.ts';

type DataLayerEntry = Record<string, unknown>;
declare global {
  interface Window {
    dataLayer?: DataLayerEntry[];
  }
}

function pushToDataLayer(entry: DataLayerEntry): void {
  window.dataLayer ??= [];
  window.dataLayer.push(entry);
}

let tagManagerLoaded = false;

/** Loads Google Tag Manager once; called only with consent. */
function loadTagManager(id: string): void {
  if (tagManagerLoaded) return;
  tagManagerLoaded = true;
  pushToDataLayer({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`;
  document.head.append(script);
}

function bindBanner(): void {
  const banner = document.getElementById('cookie-consent');
  if (!banner || banner.dataset.bound === 'true') return;
  banner.dataset.bound = 'true';
  const tagManagerId = banner.dataset.tagManagerId || null;
  const stored = parseConsentCookie(document.cookie);
  if (stored === true && tagManagerId) loadTagManager(tagManagerId);

  const actor = createActor(
    cookieConsentMachine.provide({
      actions: {
        writeCookie: (_, params) => {
          // biome-ignore lint/suspicious/noDocumentCookie: SPEC §9 names this exact cookie and its attributes
          document.cookie = params.cookie;
        },
        pushToDataLayer: (_, params) => {
          pushToDataLayer(params);
          if (params.hasAccepted && tagManagerId) loadTagManager(tagManagerId);
        },
      },
    }),
    { input: { accepted: stored } },
  );
  actor.subscribe((snapshot) => {
    banner.hidden = snapshot.matches('answered');
  });
  actor.start();
  banner.querySelector('[data-consent="accept"]')?.addEventListener('click', () => {
    actor.send({ type: 'consent.accept' });
  });
  banner.querySelector('[data-consent="reject"]')?.addEventListener('click', () => {
    actor.send({ type: 'consent.reject' });
  });
}

bindBanner();
// Soft navigation (Astro's ClientRouter on app pages) swaps the body; bind the new banner, if any.
document.addEventListener('astro:page-load', bindBanner);
