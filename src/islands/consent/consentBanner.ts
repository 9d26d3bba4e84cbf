/**
 * The consent banner's only script: the cookieConsent machine on a plain actor (no React), the cookie and
 * data-layer effects, and the tag manager, which loads only after consent and only when configured.
 */
import { createActor } from 'xstate';
import { focusPageHeading } from '../../client/focusHeading.ts';
import { parseConsentCookie } from '../../lib/consentCookie.ts';
import { cookieConsentMachine } from '../../machines/cookieConsent.machine.ts';

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

/**
 * The banner never covers the focused element (WCAG 2.4.11): the page keeps a scroll padding as tall as the
 * banner, and a control that still lands under it (the browser did not scroll) is scrolled above it.
 */
function keepFocusClear(banner: HTMLElement): void {
  const root = document.documentElement;
  const inner = banner.firstElementChild ?? banner;
  new ResizeObserver(() => {
    root.style.setProperty('--consent-height', `${Math.ceil(banner.getBoundingClientRect().height)}px`);
  }).observe(inner);
  const onFocusIn = (event: FocusEvent) => {
    // A soft navigation swaps the body: this banner is gone, and its all-zero box would scroll every focus by the
    // focused element's height (the scroll jump after each in-app page change). The new banner has its own listener.
    if (!banner.isConnected) {
      document.removeEventListener('focusin', onFocusIn);
      return;
    }
    const target = event.target;
    if (banner.hidden || !(target instanceof HTMLElement) || banner.contains(target)) return;
    const top = inner.getBoundingClientRect().top;
    const box = target.getBoundingClientRect();
    if (box.bottom > top - 8) window.scrollBy({ top: box.bottom - top + 16, behavior: 'instant' });
  };
  document.addEventListener('focusin', onFocusIn);
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
  keepFocusClear(banner);
  actor.start();
  // The answered banner hides with the button that had focus: focus goes on to the page's heading.
  const answer = (type: 'consent.accept' | 'consent.reject') => () => {
    const hadFocus = banner.contains(document.activeElement);
    actor.send({ type });
    if (hadFocus) focusPageHeading();
  };
  banner.querySelector('[data-consent="accept"]')?.addEventListener('click', answer('consent.accept'));
  banner.querySelector('[data-consent="reject"]')?.addEventListener('click', answer('consent.reject'));
}

bindBanner();
// Soft navigation (Astro's ClientRouter on app pages) swaps the body; bind the new banner, if any.
document.addEventListener('astro:page-load', bindBanner);
