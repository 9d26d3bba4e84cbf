/**
 * The property page's create forms (issue 21): a flat, a measurement point and a meter, each call × {organisation
 * admin, manager of P1, manager of P2, another organisation's admin, tenant, anonymous}; coded refusals that
 * write nothing; an audit entry per write. Fixture: tests/api/helpers/adminFixture.ts.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apartments, auditLog, measurementPoints, meters } from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, P1_ONLY, setUpAdminMatrix } from './helpers/adminMatrix.ts';

const FLAT = `mutation ($i: NewApartmentInput!) { createApartment(input: $i) { id uniqueId address areaM2 rooms
  points { id } } }`;
const POINT = `mutation ($i: NewPointInput!) { createMeasurementPoint(input: $i) { id quantity unit name room
  meters { id } } }`;
const METER = `mutation ($i: NewMeterInput!) { createMeter(input: $i) { id number radioId installedAt removedAt } }`;

let m: AdminMatrix;
let flatP1 = 0;

beforeAll(async () => {
  m = await setUpAdminMatrix();
  const [flat] = await m.database.db.select().from(apartments).where(eq(apartments.uniqueId, 'U-P1-1'));
  flatP1 = flat!.id;
}, 600_000);
afterAll(async () => {
  await m?.database.close();
});

const audits = async (action: string) =>
  (await m.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, action)))[0]!.n;
const rows = async (table: typeof apartments | typeof measurementPoints | typeof meters) =>
  (await m.database.db.select({ n: count() }).from(table))[0]!.n;

const flatInput = (uniqueId: string, over: Record<string, unknown> = {}) => ({
  propertyId: String(m.fx.p1),
  uniqueId,
  apartment: '3. th',
  address: 'Testvej 1, 3. th',
  zipcode: '8000',
  city: 'Aarhus C',
  areaM2: '64,5',
  rooms: 2,
  ...over,
});

describe('createApartment', () => {
  it('the organisation admin and P1’s manager only; each write audited', async () => {
    let n = 0;
    const codes = await m.matrix(FLAT, () => ({ i: flatInput(`U-NEW-${++n}`) }));
    expect(codes).toEqual(P1_ONLY);
    const made = await m.database.db.select().from(apartments).where(eq(apartments.propertyId, m.fx.p1));
    expect(made.map((a) => a.uniqueId).sort()).toEqual(['U-NEW-1', 'U-NEW-2', 'U-P1-1']);
    expect(made.find((a) => a.uniqueId === 'U-NEW-1')?.areaM2).toBe('64.5');
    expect(await audits('apartment.create')).toBe(2);
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'apartment.create'));
    expect(entry).toMatchObject({ propertyId: m.fx.p1, before: null });
    expect((entry!.after as { uniqueId: string }).uniqueId).toBe('U-NEW-1');
  });

  it('refusals are coded and write nothing', async () => {
    const before = await rows(apartments);
    const auditsBefore = await audits('apartment.create');
    const cases: Array<[Record<string, unknown>, string]> = [
      [flatInput('U-P1-1'), 'UNIQUE_ID_TAKEN'],
      [flatInput('U-X', { areaM2: '0' }), 'BAD_USER_INPUT'],
      [flatInput('U-X', { areaM2: 'big' }), 'BAD_USER_INPUT'],
      [flatInput('U-X', { rooms: 0 }), 'BAD_USER_INPUT'],
      [flatInput('U-X', { address: '  ' }), 'BAD_USER_INPUT'],
      [flatInput('U-X', { propertyId: '999999' }), 'FORBIDDEN'],
      [flatInput('U-X', { propertyId: 'x' }), 'FORBIDDEN'],
    ];
    for (const [input, code] of cases) expect(codeOf(await m.as('orgAdmin', FLAT, { i: input }))).toBe(code);
    expect(await rows(apartments)).toBe(before);
    expect(await audits('apartment.create')).toBe(auditsBefore);
  });
});

describe('createMeasurementPoint', () => {
  it('on a flat or on the property; the unit follows the quantity', async () => {
    let n = 0;
    const codes = await m.matrix(POINT, () => ({
      i: { propertyId: String(m.fx.p1), apartmentId: String(flatP1), quantity: 'hca', name: `HCA ${++n}` },
    }));
    expect(codes).toEqual(P1_ONLY);
    const r = await m.as('managerHere', POINT, {
      i: { propertyId: String(m.fx.p1), apartmentId: null, quantity: 'outdoor-temperature', name: 'Outside' },
    });
    expect(r.data!.createMeasurementPoint).toMatchObject({
      quantity: 'outdoor-temperature',
      unit: 'degree-celsius',
      name: 'Outside',
      room: null,
      meters: [],
    });
    const [outside] = await m.database.db
      .select()
      .from(measurementPoints)
      .where(eq(measurementPoints.name, 'Outside'));
    expect(outside).toMatchObject({ apartmentId: null, propertyId: m.fx.p1, readingKind: 'instantaneous' });
    expect(await audits('measurement_point.create')).toBe(3);
  });

  it('refuses an unknown quantity, and a flat of another property, writing nothing', async () => {
    const [p2flat] = await m.database.db.select().from(apartments).where(eq(apartments.propertyId, m.fx.p2));
    const before = await rows(measurementPoints);
    const base = { propertyId: String(m.fx.p1), apartmentId: String(flatP1), quantity: 'hca', name: 'X' };
    expect(codeOf(await m.as('orgAdmin', POINT, { i: { ...base, quantity: 'steam' } }))).toBe(
      'BAD_USER_INPUT',
    );
    expect(codeOf(await m.as('orgAdmin', POINT, { i: { ...base, name: '' } }))).toBe('BAD_USER_INPUT');
    if (p2flat) {
      // P1's manager names P2's flat under P1: refused like an unknown flat.
      const foreign = { ...base, apartmentId: String(p2flat.id) };
      expect(codeOf(await m.as('managerHere', POINT, { i: foreign }))).toBe('FORBIDDEN');
      expect(codeOf(await m.as('orgAdmin', POINT, { i: foreign }))).toBe('FORBIDDEN');
    }
    expect(codeOf(await m.as('orgAdmin', POINT, { i: { ...base, apartmentId: '999999' } }))).toBe(
      'FORBIDDEN',
    );
    expect(await rows(measurementPoints)).toBe(before);
  });
});

describe('createMeter', () => {
  let pointId = '';
  beforeAll(async () => {
    const r = await m.as('orgAdmin', POINT, {
      i: {
        propertyId: String(m.fx.p1),
        apartmentId: String(flatP1),
        quantity: 'cold-water-volume',
        name: 'CW',
      },
    });
    pointId = (r.data!.createMeasurementPoint as { id: string }).id;
  });

  it('installs a meter on a free point (roles as for the property); audited', async () => {
    let n = 0;
    const codes = await m.matrix(METER, () => {
      n += 1;
      return {
        i: { measurementPointId: pointId, number: `CW-${n}`, installedAt: `202${n}-01-01T00:00:00Z` },
      };
    });
    // The first installs CW-1 for good; the manager's then overlaps it.
    expect(codes).toEqual({ ...P1_ONLY, managerHere: 'METER_PERIOD_INVALID' });
    const [cw] = await m.database.db.select().from(meters).where(eq(meters.number, 'CW-1'));
    expect(cw).toMatchObject({ legacyKind: 'coldwater', removedAt: null });
    expect(await audits('meter.create')).toBe(1);
  });

  it('after the old meter is removed a new one goes in; refusals are coded and write nothing', async () => {
    await m.database.db
      .update(meters)
      .set({ removedAt: new Date('2025-01-01T00:00:00Z') })
      .where(eq(meters.number, 'CW-1'));
    const before = await rows(meters);
    const at = '2025-01-01T00:00:00Z';
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ number: 'CW-1', installedAt: at }, 'METER_NUMBER_TAKEN'],
      [{ number: 'CW-9', installedAt: '2024-12-31T00:00:00Z' }, 'METER_PERIOD_INVALID'],
      [{ number: 'CW-9', installedAt: '2025-01-01' }, 'BAD_USER_INPUT'],
      [{ number: ' ', installedAt: at }, 'BAD_USER_INPUT'],
    ];
    for (const [i, code] of cases) {
      expect(codeOf(await m.as('orgAdmin', METER, { i: { measurementPointId: pointId, ...i } }))).toBe(code);
    }
    expect(
      codeOf(await m.as('orgAdmin', METER, { i: { measurementPointId: '999999', ...cases[0]![0] } })),
    ).toBe('FORBIDDEN');
    expect(await rows(meters)).toBe(before);
    const ok = await m.as('managerHere', METER, {
      i: { measurementPointId: pointId, number: 'CW-2', installedAt: at, radioId: 'R-CW-2' },
    });
    expect(ok.data!.createMeter).toMatchObject({
      number: 'CW-2',
      radioId: 'R-CW-2',
      installedAt: '2025-01-01T00:00:00.000Z',
    });
    const radio = await m.as('orgAdmin', METER, {
      i: {
        measurementPointId: pointId,
        number: 'CW-3',
        installedAt: '2026-01-01T00:00:00Z',
        radioId: 'R-CW-2',
      },
    });
    expect(codeOf(radio)).toBe('RADIO_ID_TAKEN');
    expect(await rows(meters)).toBe(before + 1);
  });
});
