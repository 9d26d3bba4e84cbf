import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { parseConsentCookie } from '../../src/lib/consentCookie.ts';
import { consentCookie, cookieConsentMachine } from '../../src/machines/cookieConsent.machine.ts';
import { executor, type Outcomes, replay } from './harness.ts';

const events = [{ type: 'consent.accept' }, { type: 'consent.reject' }] as const;
const model = createTestModel(cookieConsentMachine, { events: events as never, limit: 100 });
const paths = model.getShortestPaths({ limit: 100 });

function sut(accepted: boolean | null = null) {
  const cookies: string[] = [];
  const dataLayer: unknown[] = [];
  const actor = createActor(
    cookieConsentMachine.provide({
      actions: {
        writeCookie: (_, params) => {
          cookies.push(params.cookie);
        },
        pushToDataLayer: (_, params) => {
          dataLayer.push(params);
        },
      },
    }),
    { input: { accepted } },
  ).start();
  return { actor, cookies, dataLayer };
}

type Context = ReturnType<typeof cookieConsentMachine.getInitialSnapshot>['context'];

/** SPEC §4: the banner shows until an answer, and the answer is remembered (written by hand). */
const outcomes: Outcomes<Context> = [
  ['notAnswered', { accepted: null }],
  ['answered', (c) => expect(typeof c.accepted).toBe('boolean')],
];

describe('cookieConsent model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(2);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, cookies, dataLayer } = sut();
      await replay(path, actor, executor(actor), outcomes);
      const accepted = path.steps.some((s) => s.event.type === 'consent.accept');
      expect(actor.getSnapshot().context.accepted).toBe(accepted);
      expect(cookies).toEqual([consentCookie(accepted)]);
      expect(dataLayer).toEqual([{ event: 'cookieConsent', hasAccepted: accepted }]);
    });
  }
});

describe('cookie consent details', () => {
  it('writes cookieAccepted for a year with SameSite=None and Secure', () => {
    expect(consentCookie(true)).toBe('cookieAccepted=true; Max-Age=31536000; Path=/; SameSite=None; Secure');
    expect(consentCookie(false)).toMatch(/^cookieAccepted=false;/);
  });

  it('starts answered when the cookie holds an answer, and then ignores further answers', () => {
    const { actor, cookies } = sut(false);
    expect(actor.getSnapshot().value).toBe('answered');
    actor.send({ type: 'consent.accept' });
    expect(cookies).toEqual([]);
    expect(actor.getSnapshot().context.accepted).toBe(false);
  });

  it('reads the cookie header safely', () => {
    expect(parseConsentCookie('a=1; cookieAccepted=true; b=2')).toBe(true);
    expect(parseConsentCookie('cookieAccepted=false')).toBe(false);
    expect(parseConsentCookie('cookieAccepted=maybe')).toBeNull();
    expect(parseConsentCookie('xcookieAccepted=true')).toBeNull();
    expect(parseConsentCookie('')).toBeNull();
    expect(parseConsentCookie(undefined)).toBeNull();
  });
});
