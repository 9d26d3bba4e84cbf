/** Issue 25: a leak is filed as a leak; a day reads "on 24 November" (da "den", nb none: docs/glossary.md), a week in lower case. */
import { describe, expect, it, vi } from 'vitest';

// The texts' module sits beside the islands' hooks, which import Astro's client router; none of it runs here.
vi.mock('astro:transitions/client', () => ({ navigate: () => undefined }));

import { serverT } from '../../src/client/i18n.ts';
import type { Notification } from '../../src/client/operations/notificationQueries.ts';
import { notificationTexts } from '../../src/islands/notifications/text.ts';
import type { Language } from '../../src/lib/languages.ts';

const leak: Notification = {
  id: '1',
  tenancyId: '1',
  kind: 'ZERO_CONSUMPTION',
  alarmId: '1',
  quantity: 'cold-water-volume',
  frequency: 'DAY',
  periodStart: '2026-11-24',
  periodEnd: '2026-11-24',
  value: null,
  reference: null,
  reason: 'leak',
  percent: null,
  totals: [],
  reportUrl: null,
  correctedChangePercent: null,
  comparison: [],
  createdAt: '2026-11-25T06:00:00Z',
  read: false,
};

const texts = (n: Notification, lang: Language) =>
  notificationTexts(n, lang, serverT(lang) as unknown as Parameters<typeof notificationTexts>[2]);

describe('notification texts', () => {
  it('files a leak as a leak, on the day', () => {
    expect(texts(leak, 'en')).toEqual({
      title: 'Possible leak',
      text: expect.stringContaining('ran in every hour for 24 hours on 24 November 2026.'),
    });
    expect(texts(leak, 'da').title).toBe('Mulig lækage');
    expect(texts(leak, 'da').text).toContain('i 24 timer den 24. november 2026.');
    expect(texts(leak, 'nb').text).toContain('i 24 timer 24. november 2026.');
  });

  it('keeps the alarm kind for a plain zero, and a week lower case after its preposition', () => {
    const week = { ...leak, reason: 'zero', frequency: 'WEEK' as const, periodStart: '2026-11-16' };
    expect(texts(week, 'en').title).toBe('Zero consumption');
    expect(texts(week, 'en').text).toContain('nothing was used in week 47');
    expect(texts(week, 'da').text).toContain('i uge 47');
  });
});
