/**
 * The console's portfolio overview: who sees which properties (role matrix), the figures per property
 * (freshness from meters.last_reading_at as the readings trigger keeps it, open issues, tenancies, invited and
 * activated tenants), and filtering, sorting and paging on the server.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apartments,
  dataIssues,
  invitations,
  measurementPoints,
  meters,
  registerReadings,
  tenancies,
} from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, setUpAdminMatrix, UNAUTH } from './helpers/adminMatrix.ts';

const PORTFOLIO = `query ($f: PortfolioFilter, $s: PortfolioSort, $first: Int, $offset: Int) {
  portfolio(filter: $f, sort: $s, first: $first, offset: $offset) {
    total asOf
    rows { property { id number } apartments meters metersReporting reportingShare lastReadingAt openIssues tenancies invited activated }
  }
}`;

type Row = {
  property: { id: string; number: string };
  apartments: number;
  meters: number;
  metersReporting: number;
  reportingShare: number | null;
  lastReadingAt: string | null;
  openIssues: number;
  tenancies: number;
  invited: number;
  activated: number;
};
type Page = { total: number; asOf: string; rows: Row[] };

let m: AdminMatrix;
const HOUR = 3_600_000;
const now = Date.now();
const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
let meterIds: number[] = [];

beforeAll(async () => {
  m = await setUpAdminMatrix();
  const db = m.database.db;
  const [apt] = await db.select().from(apartments).where(eq(apartments.propertyId, m.fx.p1));
  // A second flat whose tenancy has ended: its tenants and invitations no longer count.
  const [old] = await db
    .insert(apartments)
    .values({ ...apt!, id: undefined, uniqueId: 'U-P1-2', apartment: '1. th' })
    .returning();
  const [ended] = await db
    .insert(tenancies)
    .values({ apartmentId: old!.id, tenancyId: 'T-P1-OLD', start: '2020-01-01', end: '2021-01-01' })
    .returning();
  await db.insert(invitations).values([
    { tenancyId: m.fx.tenancy1, email: 'tenant@p1.test', activationCode: 'AAAABBBBCCCC' },
    // Sent twice to the same address: one invited tenant.
    { tenancyId: m.fx.tenancy1, email: 'Tenant@P1.test', activationCode: 'AAAABBBBCCCD' },
    { tenancyId: m.fx.tenancy1, email: 'partner@p1.test', activationCode: 'AAAABBBBCCCE' },
    { tenancyId: ended!.id, email: 'gone@p1.test', activationCode: 'AAAABBBBCCCF' },
  ]);
  const [point] = await db
    .insert(measurementPoints)
    .values({
      propertyId: m.fx.p1,
      apartmentId: apt!.id,
      quantity: 'heat-energy',
      unit: 'kilo-watt-hour',
      name: 'Heat',
      readingKind: 'register',
    })
    .returning();
  const installed = new Date('2024-01-01T00:00:00Z');
  const made = await db
    .insert(meters)
    .values([
      { measurementPointId: point!.id, number: 'M-1', legacyKind: 'energy', installedAt: installed },
      { measurementPointId: point!.id, number: 'M-2', legacyKind: 'energy', installedAt: installed },
      { measurementPointId: point!.id, number: 'M-3', legacyKind: 'energy', installedAt: installed },
      // Removed: swapped out, not counted.
      {
        measurementPointId: point!.id,
        number: 'M-OLD',
        legacyKind: 'energy',
        installedAt: installed,
        removedAt: new Date('2024-06-01T00:00:00Z'),
      },
    ])
    .returning();
  meterIds = made.map((x) => x.id);
  // M-1 and M-2 reported within 24 h (in one statement, as ingestion inserts), M-3 three days ago.
  await db.insert(registerReadings).values([
    { meterId: meterIds[0]!, ts: at(30), value: '10' },
    { meterId: meterIds[0]!, ts: at(2), value: '11' },
    { meterId: meterIds[1]!, ts: at(5), value: '20' },
    { meterId: meterIds[2]!, ts: at(72), value: '30' },
    { meterId: meterIds[3]!, ts: new Date('2024-05-01T00:00:00Z'), value: '5' },
  ]);
  const issue = (status: 'open' | 'accepted') => ({
    kind: 'jump' as const,
    status,
    meterId: meterIds[0]!,
    propertyId: m.fx.p1,
    readingTs: at(10 + (status === 'open' ? 0 : 1)),
    evidence: {},
    source: 'csv',
  });
  await db.insert(dataIssues).values([issue('open'), issue('accepted')]);
}, 600_000);
afterAll(async () => {
  await m?.database.close();
});

const page = async (who: Parameters<AdminMatrix['as']>[0], vars: Record<string, unknown> = {}) => {
  const result = await m.as(who, PORTFOLIO, vars);
  if (!result.data) throw new Error(JSON.stringify(result.errors));
  return result.data.portfolio as Page;
};
const numbers = (p: Page) => p.rows.map((r) => r.property.number);

describe('portfolio: who sees what', () => {
  it('answers every operator with their own properties only, and nobody else', async () => {
    expect(await m.matrix(PORTFOLIO, () => ({}))).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: undefined,
      otherOrgAdmin: undefined,
      ...UNAUTH,
    });
    expect(numbers(await page('orgAdmin'))).toEqual(['P1', 'P2']);
    expect(numbers(await page('managerHere'))).toEqual(['P1']);
    // A manager of another property never sees this one, whatever the filter.
    expect(numbers(await page('managerElsewhere'))).toEqual(['P2']);
    expect(numbers(await page('managerElsewhere', { f: { search: 'P1' } }))).toEqual([]);
    expect(numbers(await page('otherOrgAdmin'))).toEqual(['P3']);
  });
});

describe('portfolio: the figures', () => {
  it('counts freshness over active meters, open issues, current tenancies, invited and activated tenants', async () => {
    const [p1] = (await page('managerHere')).rows;
    expect(p1).toMatchObject({
      apartments: 2,
      meters: 3,
      metersReporting: 2,
      openIssues: 1,
      tenancies: 1,
      invited: 2,
      activated: 1,
    });
    expect(p1!.reportingShare).toBeCloseTo(2 / 3, 6);
    expect(p1!.lastReadingAt).toBe(at(2).toISOString());
    const [, p2] = (await page('orgAdmin')).rows;
    expect(p2).toMatchObject({ meters: 0, metersReporting: 0, reportingShare: null, lastReadingAt: null });
  });

  it('follows new readings and deleted ones (the readings trigger)', async () => {
    const db = m.database.db;
    await db.insert(registerReadings).values({ meterId: meterIds[2]!, ts: at(1), value: '31' });
    let [p1] = (await page('managerHere')).rows;
    expect(p1).toMatchObject({ metersReporting: 3, lastReadingAt: at(1).toISOString() });
    // An older reading arriving late changes nothing.
    await db.insert(registerReadings).values({ meterId: meterIds[2]!, ts: at(50), value: '29' });
    [p1] = (await page('managerHere')).rows;
    expect(p1!.lastReadingAt).toBe(at(1).toISOString());
    await db.delete(registerReadings).where(eq(registerReadings.ts, at(1)));
    [p1] = (await page('managerHere')).rows;
    expect(p1).toMatchObject({ metersReporting: 2, lastReadingAt: at(2).toISOString() });
  });
});

describe('portfolio: filter, sort and pages on the server', () => {
  it('filters by text, freshness and open issues', async () => {
    expect(numbers(await page('orgAdmin', { f: { search: 'street p2' } }))).toEqual(['P2']);
    expect(numbers(await page('orgAdmin', { f: { search: '%' } }))).toEqual([]);
    expect(numbers(await page('orgAdmin', { f: { freshness: 'SILENT' } }))).toEqual(['P2']);
    expect(numbers(await page('orgAdmin', { f: { freshness: 'INCOMPLETE' } }))).toEqual(['P1', 'P2']);
    expect(numbers(await page('orgAdmin', { f: { withOpenIssues: true } }))).toEqual(['P1']);
  });

  it('sorts by any column either way, missing values last', async () => {
    expect(numbers(await page('orgAdmin', { s: { key: 'NUMBER', direction: 'DESC' } }))).toEqual([
      'P2',
      'P1',
    ]);
    expect(numbers(await page('orgAdmin', { s: { key: 'OPEN_ISSUES', direction: 'DESC' } }))).toEqual([
      'P1',
      'P2',
    ]);
    for (const direction of ['ASC', 'DESC']) {
      expect(numbers(await page('orgAdmin', { s: { key: 'LAST_READING', direction } }))).toEqual([
        'P1',
        'P2',
      ]);
    }
  });

  it('pages with a total, also past the end, and refuses bad page sizes', async () => {
    const second = await page('orgAdmin', { first: 1, offset: 1 });
    expect(second).toMatchObject({ total: 2 });
    expect(numbers(second)).toEqual(['P2']);
    const beyond = await page('orgAdmin', { first: 1, offset: 5 });
    expect(beyond).toMatchObject({ total: 2, rows: [] });
    expect(codeOf(await m.as('orgAdmin', PORTFOLIO, { first: 0 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await m.as('orgAdmin', PORTFOLIO, { first: 201 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await m.as('orgAdmin', PORTFOLIO, { offset: -1 }))).toBe('BAD_USER_INPUT');
  });
});
