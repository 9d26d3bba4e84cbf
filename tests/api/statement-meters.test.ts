/**
 * The statement's per-meter readings with scale factors (read from the meters' register readings at the
 * period's start and end, checked against the meters and the app's figures), the weather-corrected comparison
 * drawn as a graph, and the CO2KostAufG split of a German property: in the account API and in the PDF.
 * Issue 22. On PGlite and PostgreSQL (TEST_DATABASE_URL).
 */
import { eq, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  measurementPoints,
  meters,
  properties,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ingestReadings } from '../../src/server/ingest/ingest.ts';
import type { ReadingRow } from '../../src/server/ingest/types.ts';
import { handleStatementDownload } from '../../src/server/statements/download.ts';
import { importStatements, parseStatementFile } from '../../src/server/statements/import.ts';
import type { StatementFileEntry } from '../../src/server/statements/model.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { hoursOf } from './helpers/fixtures.ts';
import { testProperty } from './helpers/property.ts';

const IMPORT_NOW = new Date('2026-01-10T10:00:00Z');
const TZ = 'Europe/Copenhagen';

let database: Database;
let api: TestApi;
const users_: Record<string, { id: number; email: string }> = {};
const tenancyIds: Record<string, number> = {};
let apartmentA = 0;

/** Hourly register readings of a meter over local dates [from, to] (to's midnight included), rising by `rise(i)`. */
function readings(meterNumber: string, from: string, to: string, start: number, rise: (i: number) => number) {
  const hours = hoursOf(from, Temporal.PlainDate.from(to).add({ days: 1 }).toString());
  hours.push(Temporal.PlainDate.from(to).add({ days: 1 }).toZonedDateTime(TZ).toInstant());
  let value = start;
  return hours.map((h, i): ReadingRow => {
    if (i > 0) value += rise(i);
    return { line: i + 2, meterNumber, ts: h.toString(), value: value.toFixed(3) };
  });
}

const statement = (over: Partial<StatementFileEntry> = {}): StatementFileEntry => ({
  tenancy: 'T-SM-A',
  periodStart: '2025-10-01',
  periodEnd: '2025-10-31',
  currency: 'DKK',
  fixedSharePercent: 40,
  variableSharePercent: 60,
  area: { tenantM2: 60, propertyM2: 240 },
  consumption: { unit: 'hca-unit', tenant: 250, property: 1000 },
  expenses: [
    { type: 'heating', propertyTotal: '40000.00', tenantFixed: '4000.00', tenantVariable: '6000.00' },
  ],
  advancePayments: '9000.00',
  degreeDays: { period: 250, normalYear: 214 },
  objectionDeadline: '2026-03-01',
  ...over,
});

const importOne = async (s: StatementFileEntry) =>
  importStatements(database.db, parseStatementFile(JSON.stringify(s)), IMPORT_NOW);

beforeAll(async () => {
  database = await freshDatabase();
  api = await createTestApi(database);
  const { db } = database;
  const dk = await testProperty(
    db,
    [
      { uniqueId: 'SM-A', areaM2: '60' },
      { uniqueId: 'SM-B', areaM2: '60' },
    ],
    'SM',
  );
  apartmentA = dk.apartmentIds[0]!;
  const de = await testProperty(db, [{ uniqueId: 'DE-A', areaM2: '100' }], 'DE1');
  await db.update(properties).set({ country: 'DE' }).where(eq(properties.id, de.propertyId));
  const meter = async (
    apartmentId: number,
    propertyId: number,
    quantity: string,
    room: string | null,
    number: string,
    installedAt = '2020-01-01T00:00:00Z',
  ) => {
    const [p] = await db
      .insert(measurementPoints)
      .values({
        propertyId,
        apartmentId,
        quantity,
        unit: quantity === 'hca' ? 'hca-unit' : 'cubic-meter',
        room,
        name: room ?? quantity,
        readingKind: 'register',
      })
      .returning();
    await db.insert(meters).values({
      measurementPointId: p!.id,
      number,
      legacyKind: quantity === 'hca' ? 'radiator' : 'hotwater',
      installedAt: new Date(installedAt),
    });
  };
  await meter(apartmentA, dk.propertyId, 'hca', 'Living room', 'HCA-1');
  await meter(apartmentA, dk.propertyId, 'hca', 'Bedroom', 'HCA-2');
  // Fitted on 10 October: its first reading is after the period's start.
  await meter(apartmentA, dk.propertyId, 'hot-water-volume', null, 'HW-1', '2025-10-10T08:00:00Z');
  await meter(dk.apartmentIds[1]!, dk.propertyId, 'hca', 'Living room', 'HCA-B');
  await ingestReadings(db, [
    ...readings('HCA-1', '2025-09-28', '2025-11-02', 100, (i) => (i % 3) * 0.5),
    ...readings('HCA-2', '2025-09-28', '2025-11-02', 40, (i) => (i % 4 === 0 ? 1 : 0)),
    ...readings('HW-1', '2025-10-11', '2025-11-02', 2, () => 0.002),
  ]);
  const named = [
    ['a', apartmentA, 'T-SM-A'],
    ['b', dk.apartmentIds[1]!, 'T-SM-B'],
    ['de', de.apartmentIds[0]!, 'T-DE-A'],
  ] as const;
  for (const [name, apartmentId, ref] of named) {
    const [tenancy] = await db
      .insert(tenancies)
      .values({ apartmentId, tenancyId: ref, start: '2024-01-01' })
      .returning();
    const [user] = await db
      .insert(users)
      .values({ email: `${name}@sm.test`, language: 'en' })
      .returning();
    await db.insert(tenancyMembers).values({ tenancyId: tenancy!.id, userId: user!.id });
    users_[name] = { id: user!.id, email: user!.email };
    tenancyIds[name] = tenancy!.id;
  }
}, 600_000);
afterAll(async () => {
  await database?.close();
});

const token = async (backend: 'account' | 'tenant', name: string) =>
  (await signAccessToken(backend, api.services.keys[backend], users_[name]!, 300)).token;

type Reading = {
  meterNumber: string;
  quantity: string;
  room: string | null;
  startAt: string | null;
  startValue: number | null;
  endAt: string | null;
  endValue: number | null;
  scaleFactor: number;
  consumption: number | null;
};
const STATEMENTS = `query ($id: ID!) { allocationStatements(tenancyId: $id) { id periodStartDate
  meterReadings { meterNumber quantity room startAt startValue endAt endValue scaleFactor consumption }
  co2Split { buildingKg kgPerM2Year stage tenantPercent landlordPercent co2Cost tenantCo2Cost tenantPart landlordPart } } }`;

async function statementsOf(name: string, tenancy = name) {
  return gql<{
    allocationStatements: {
      id: string;
      periodStartDate: string;
      meterReadings: Reading[];
      co2Split: Record<string, unknown> | null;
    }[];
  }>(api.account, STATEMENTS, { id: String(tenancyIds[tenancy]) }, await token('account', name));
}

async function pdfText(id: string, name: string) {
  const response = await handleStatementDownload(
    api.services,
    new Request(`http://app/api/statements/${id}/pdf?lang=en`, {
      headers: { authorization: `Bearer ${await token('account', name)}` },
    }),
    id,
  );
  expect(response.status).toBe(200);
  const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  return (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
}

describe(`statement meter readings and CO₂ split (${testEngine})`, () => {
  it('refuses scale factors of meters outside the flat, a CO₂ basis outside Germany, and a German heating statement without one', async () => {
    await expect(importOne(statement({ meters: [{ number: 'HCA-B', scaleFactor: 1 }] }))).rejects.toThrow(
      'meters.0.number: "HCA-B" is not a meter of the tenancy\'s flat',
    );
    await expect(
      importOne(
        statement({
          meters: [
            { number: 'HCA-1', scaleFactor: 1 },
            { number: 'HCA-1', scaleFactor: 2 },
          ],
        }),
      ),
    ).rejects.toThrow('meter "HCA-1" is listed twice');
    await expect(importOne(statement({ meters: [{ number: 'HCA-1', scaleFactor: 0 }] }))).rejects.toThrow(
      'meters.0.scaleFactor',
    );
    await expect(importOne(statement({ co2: { buildingKg: 100, cost: '10.00' } }))).rejects.toThrow(
      'co2: applies to German properties only',
    );
    await expect(importOne(statement({ tenancy: 'T-DE-A' }))).rejects.toThrow(
      "co2: is needed for a German property's heating",
    );
    const listed = await statementsOf('a');
    expect(listed.data!.allocationStatements).toEqual([]);
  });

  it('gives each meter its readings at the start and end of the period, its factor and its use, agreeing with the meters and the app', async () => {
    await importOne(
      statement({
        meters: [
          { number: 'HCA-1', scaleFactor: 1.2 },
          { number: 'HCA-2', scaleFactor: 0.8 },
        ],
      }),
    );
    const r = await statementsOf('a');
    expect(r.errors).toBeUndefined();
    const [s] = r.data!.allocationStatements;
    const byNumber = new Map(s!.meterReadings.map((m) => [m.meterNumber, m]));
    expect([...byNumber.keys()].sort()).toEqual(['HCA-1', 'HCA-2', 'HW-1']);
    // The readings the meters hold at the local midnights around the period.
    const at = readingAt;
    const hca1 = byNumber.get('HCA-1')!;
    expect(hca1.startAt).toBe('2025-10-01T00:00:00+02:00');
    expect(hca1.endAt).toBe('2025-11-01T00:00:00+01:00');
    expect(hca1.startValue).toBe(await at('HCA-1', '2025-09-30T22:00:00Z'));
    expect(hca1.endValue).toBe(await at('HCA-1', '2025-10-31T23:00:00Z'));
    expect(hca1.scaleFactor).toBe(1.2);
    expect(hca1.consumption).toBeCloseTo((hca1.endValue! - hca1.startValue!) * 1.2, 9);
    const hca2 = byNumber.get('HCA-2')!;
    expect(hca2.scaleFactor).toBe(0.8);
    expect(hca2.consumption).toBeCloseTo((hca2.endValue! - hca2.startValue!) * 0.8, 9);
    // Fitted on 10 October: from its first reading, with factor 1 as the statement gives none.
    const hw = byNumber.get('HW-1')!;
    expect(hw.startAt).toBe('2025-10-11T00:00:00+02:00');
    expect(hw.startValue).toBe(2);
    expect(hw.scaleFactor).toBe(1);
    expect(hw.consumption).toBeCloseTo(hw.endValue! - 2, 9);
    expect(hw.endValue).toBeCloseTo(2 + 0.002 * hoursOf('2025-10-11', '2025-11-01').length, 6);

    // The unscaled rises add up to the app's allocator total of the same dates.
    const kpis = await gql<{
      unitQuantityKpis: { quantityDescriptor: { quantity: string }; total: number }[];
    }>(
      api.tenant,
      `query ($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) { quantityDescriptor { quantity } total } }`,
      {
        input: {
          unitId: String(apartmentA),
          quantities: ['hca', 'hot-water-volume'],
          periodBegin: '2025-10-01',
          periodEnd: '2025-10-31',
        },
      },
      await token('tenant', 'a'),
    );
    expect(kpis.errors).toBeUndefined();
    const total = (q: string) =>
      kpis.data!.unitQuantityKpis.find((k) => k.quantityDescriptor.quantity === q)!.total;
    expect(hca1.endValue! - hca1.startValue! + hca2.endValue! - hca2.startValue!).toBeCloseTo(
      total('hca'),
      6,
    );
    expect(hw.consumption!).toBeCloseTo(total('hot-water-volume'), 6);

    // Another tenant cannot read them.
    expect(errorCode(await statementsOf('b', 'a'))).toBe('FORBIDDEN');
    expect((await statementsOf('b')).data!.allocationStatements).toEqual([]);

    // The PDF lists the same readings, factors and use.
    const text = await pdfText(s!.id, 'a');
    expect(text).toContain('12. Meter readings');
    const n = (x: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 3 }).format(x);
    expect(text).toContain(
      `Heat-cost allocator, Living room, HCA-1 ${n(hca1.startValue!)} ${n(hca1.endValue!)} 1.2 ${n(hca1.consumption!)}`,
    );
    expect(text).toContain(
      `Heat-cost allocator, Bedroom, HCA-2 ${n(hca2.startValue!)} ${n(hca2.endValue!)} 0.8 ${n(hca2.consumption!)}`,
    );
    expect(text).toContain(`Hot water, HW-1 2 ${n(hw.endValue!)} 1 ${n(hw.consumption!)}`);
    expect(text).not.toContain('13. CO');
  });

  it("draws the comparison with the previous period at this period's weather as a graph", async () => {
    // The previous period (September) at fewer degree days: corrected up for October's weather.
    await importOne(
      statement({
        periodStart: '2025-09-01',
        periodEnd: '2025-09-30',
        consumption: { unit: 'hca-unit', tenant: 200, property: 800 },
        degreeDays: { period: 100, normalYear: 111 },
      }),
    );
    const [october] = (await statementsOf('a')).data!.allocationStatements;
    expect(october!.periodStartDate).toBe('2025-10-01');
    const text = await pdfText(october!.id, 'a');
    // 200 × (0.25 + 0.75 × 250 / 100) = 425
    expect(text).toContain('Your use, allocator units');
    expect(text).toContain('Previous period, as measured 200 allocator units');
    expect(text).toContain("Previous period at this period's weather 425 allocator units");
    expect(text).toContain('This period 250 allocator units');
  });

  it('splits the CO₂ cost of a German property by the stage table, in the API and the PDF', async () => {
    // 15,000 kg over 500 m² in a year: 30 kg/m², stage 5 (27 to under 32 kg), tenant 60 %, landlord 40 %.
    await importOne(
      statement({
        tenancy: 'T-DE-A',
        periodStart: '2025-01-01',
        periodEnd: '2025-12-31',
        currency: 'EUR',
        area: { tenantM2: 100, propertyM2: 500 },
        consumption: { unit: 'kilo-watt-hour', tenant: 20_000, property: 100_000 },
        expenses: [
          { type: 'heating', propertyTotal: '40000.00', tenantFixed: '3200.00', tenantVariable: '4800.00' },
        ],
        advancePayments: '8000.00',
        co2: { buildingKg: 15_000, cost: '1200.00' },
        objectionDeadline: '2026-01-10',
      }),
    );
    const r = await statementsOf('de');
    expect(r.errors).toBeUndefined();
    expect(r.data!.allocationStatements[0]!.co2Split).toEqual({
      buildingKg: 15_000,
      kgPerM2Year: 30,
      stage: 5,
      tenantPercent: 60,
      landlordPercent: 40,
      co2Cost: '1200.00',
      // The tenant's 8,000 of the building's 40,000 heating cost: 20 % of 1,200.
      tenantCo2Cost: '240.00',
      tenantPart: '144.00',
      landlordPart: '96.00',
    });
    const text = await pdfText(r.data!.allocationStatements[0]!.id, 'de');
    expect(text).toContain('13. CO2 cost split (CO2KostAufG)');
    expect(text).toContain('30 kg CO2 per m² and year, stage 5 of 10 (27 to under 32 kg)');
    expect(text).toContain('the tenant bears 60 % and the landlord 40 %');
    expect(text).toMatch(/Borne by you EUR 144\.00/);
    expect(text).toMatch(/Borne by your landlord EUR 96\.00/);
    // A Danish statement has none.
    expect((await statementsOf('a')).data!.allocationStatements.every((s) => s.co2Split === null)).toBe(true);
  });
});

async function readingAt(number: string, ts: string): Promise<number> {
  const [row] = await queryRows<{ v: string }>(
    database.db,
    sql`SELECT r.value::text AS v FROM register_readings r JOIN meters m ON m.id = r.meter_id
        WHERE m.number = ${number} AND r.ts = ${ts}::timestamptz`,
  );
  return Number(row!.v);
}
