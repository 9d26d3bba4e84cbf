/**
 * The report lookup throttle (issue 25): an address that used up its lookups is refused for the window it is
 * told and served again once it has passed (the clock is faked); reading a report it has the code of (in another
 * language, again) costs nothing. PGlite and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { monthlyReports, tenancies } from '../../src/server/db/schema.ts';
import { LOOKUP_POINTS, LOOKUP_WINDOW_SECONDS, lookUpReport } from '../../src/server/reports/lookup.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { testProperty } from './helpers/property.ts';

const UNKNOWN = 'u'.repeat(43);
const CODE = 'k'.repeat(43);

describe(`report lookup throttle release (${testEngine})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    const { apartmentIds } = await testProperty(database.db, [{ uniqueId: 'A1', areaM2: '70' }]);
    const [tenancy] = await database.db
      .insert(tenancies)
      .values({ apartmentId: apartmentIds[0]!, tenancyId: 'T-throttle', start: '2026-01-01' })
      .returning();
    await database.db.insert(monthlyReports).values({
      code: CODE,
      tenancyId: tenancy!.id,
      month: '2026-10-01',
      language: 'da',
      content: {},
      expiresAt: new Date('2099-01-01T00:00:00Z'),
    });
  });
  afterAll(async () => {
    await database?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses for the window it names, then serves again', async () => {
    const start = new Date('2026-11-24T10:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    let answer = await lookUpReport(database.db, UNKNOWN, 'waiter');
    for (let i = 0; i < LOOKUP_POINTS && answer.status !== 'throttled'; i++)
      answer = await lookUpReport(database.db, UNKNOWN, 'waiter');
    expect(answer.status).toBe('throttled');
    const wait = answer.status === 'throttled' ? answer.retryAfterSeconds : 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(LOOKUP_WINDOW_SECONDS);

    // Asking again while refused does not push the release further away.
    vi.setSystemTime(new Date(start.getTime() + 60_000));
    const again = await lookUpReport(database.db, UNKNOWN, 'waiter');
    expect(again.status).toBe('throttled');
    if (again.status === 'throttled') expect(again.retryAfterSeconds).toBeLessThanOrEqual(wait);

    // Waiting as told: the next lookup is answered.
    vi.setSystemTime(new Date(start.getTime() + (wait + 1) * 1000));
    expect((await lookUpReport(database.db, UNKNOWN, 'waiter')).status).toBe('unavailable');
  });

  it('never refuses an address reading a report it has the code of, however often', async () => {
    for (let i = 0; i < LOOKUP_POINTS + 5; i++)
      expect((await lookUpReport(database.db, CODE, 'reader')).status).toBe('found');
    // The reader's misses are still counted.
    let miss = await lookUpReport(database.db, UNKNOWN, 'reader');
    for (let i = 0; i < LOOKUP_POINTS && miss.status !== 'throttled'; i++)
      miss = await lookUpReport(database.db, UNKNOWN, 'reader');
    expect(miss.status).toBe('throttled');
  });
});
