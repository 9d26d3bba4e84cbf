/**
 * The console's properties and meters (issue 21): each call × {organisation admin, manager of P1, manager of P2,
 * another organisation's admin, tenant, anonymous}, refusals that change nothing, the forms' edits with
 * before/after in the audit log, a meter's settings and a swap with end and start readings (the later describes
 * build on the swaps). The upload's validation: admin-props-upload.test.ts. Fixture:
 * tests/api/helpers/adminFixture.ts, plus a heat point and meter on P1's flat with two readings (adminProps.ts).
 */
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apartments,
  auditLog,
  hourlyConsumption,
  measurementPoints,
  meters,
  properties,
  registerReadings,
} from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, P1_ONLY, UNAUTH } from './helpers/adminMatrix.ts';
import { csv, DETAIL, IMPORT, type PropsIds, setUpProps } from './helpers/adminProps.ts';

const METER = `query ($id: ID!) { adminMeter(id: $id) { number radioId rolloverDigits resetOn installedAt removedAt
  readings { ts value } estimatedHours hoursWithValues history { number removedAt } } }`;
const APARTMENT = `mutation ($i: ApartmentInput!) { updateApartment(input: $i) { id address areaM2 rooms
  points { name meters { number } } } }`;
const POINT = `mutation ($i: PointInput!) { updateMeasurementPoint(input: $i) { id name room } }`;
const SETTINGS = `mutation ($i: MeterSettingsInput!) { updateMeterSettings(input: $i) { radioId rolloverDigits resetOn
  installedAt removedAt } }`;
const SWAP = `mutation ($i: MeterSwapInput!) { swapMeter(input: $i) { id number installedAt radioId
  readings { ts value } history { number removedAt } } }`;

let m: AdminMatrix;
let ids: PropsIds;

beforeAll(async () => {
  ({ m, ids } = await setUpProps());
}, 600_000);
afterAll(async () => {
  await m?.database.close();
});

const audits = async (action: string) =>
  (await m.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, action)))[0]!.n;

describe('role matrix: properties and meters', () => {
  it('propertyDetail and adminMeter: the organisation admin and P1’s manager only', async () => {
    expect(await m.matrix(DETAIL, () => ({ id: String(m.fx.p1) }))).toEqual(P1_ONLY);
    expect(await m.matrix(METER, () => ({ id: String(ids.meter) }))).toEqual(P1_ONLY);
    // P2: its manager and the organisation admin; P1's manager is refused.
    const p2 = await m.matrix(DETAIL, () => ({ id: String(m.fx.p2) }));
    expect(p2).toMatchObject({ orgAdmin: undefined, managerHere: 'FORBIDDEN', managerElsewhere: undefined });
    // Unknown and malformed ids are refused alike.
    for (const id of ['999999', 'x1']) {
      expect(codeOf(await m.as('orgAdmin', DETAIL, { id }))).toBe('FORBIDDEN');
      expect(codeOf(await m.as('orgAdmin', METER, { id }))).toBe('FORBIDDEN');
    }
  });

  it('propertyDetail lists the flat, its point and meter', async () => {
    const r = await m.as('orgAdmin', DETAIL, { id: String(m.fx.p1) });
    expect(r.data).toEqual({
      propertyDetail: {
        property: { number: 'P1' },
        apartments: [
          {
            uniqueId: 'U-P1-1',
            areaM2: '70',
            rooms: 3,
            points: [{ name: 'Heat', room: null, meters: [{ number: 'M-P1-HEAT' }] }],
          },
        ],
      },
    });
  });

  it('importPropertyFile: organisation admins only, each into their own organisation', async () => {
    let n = 0;
    const before = (await m.database.db.select({ n: count() }).from(properties))[0]!.n;
    const codes = await m.matrix(IMPORT, () => {
      n += 1;
      return { f: 'CSV', c: csv(`M-${n}`, `U-M-${n}`, `MM-${n}`) };
    });
    expect(codes).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      otherOrgAdmin: undefined,
      ...UNAUTH,
    });
    const made = await m.database.db.select().from(properties);
    expect(made.length).toBe(before + 2);
    // Callers in matrix order: orgAdmin got M-1, otherOrgAdmin M-4, into their own organisations.
    expect(made.find((p) => p.number === 'M-1')?.accountId).toBe(m.fx.org1);
    expect(made.find((p) => p.number === 'M-4')?.accountId).toBe(m.fx.org2);
    expect(made.some((p) => ['M-2', 'M-3', 'M-5', 'M-6'].includes(p.number))).toBe(false);
    expect(await audits('property.import')).toBe(2);
  });

  it('updateApartment: refusals leave the flat as it was; a write is audited with before and after', async () => {
    let rooms = 3;
    const codes = await m.matrix(APARTMENT, () => {
      rooms += 1;
      return {
        i: {
          id: String(ids.apartment),
          apartment: 'st. tv',
          address: `Street P1, st. tv (${rooms})`,
          zipcode: '8000',
          city: 'Aarhus C',
          areaM2: '72,5',
          rooms,
        },
      };
    });
    expect(codes).toEqual(P1_ONLY);
    const again = await m.as('orgAdmin', APARTMENT, {
      i: {
        id: String(ids.apartment),
        apartment: 'st. tv',
        address: 'Street P1, st. tv (5)',
        zipcode: '8000',
        city: 'Aarhus C',
        areaM2: '72.50',
        rooms: 5,
      },
    });
    expect(again.data!.updateApartment).toMatchObject({
      areaM2: '72.5',
      points: [{ name: 'Heat', meters: [{ number: 'M-P1-HEAT' }] }],
    });
    const [flat] = await m.database.db.select().from(apartments).where(eq(apartments.id, ids.apartment));
    // managerHere (the second call, rooms 5) wrote last.
    expect(flat).toMatchObject({ rooms: 5, areaM2: '72.5', address: 'Street P1, st. tv (5)' });
    const entries = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'apartment.update'))
      .orderBy(auditLog.id);
    expect(entries.map((e) => [e.actor, e.propertyId])).toEqual([
      ['admin1@org1.test', m.fx.p1],
      ['manager1@org1.test', m.fx.p1],
      ['admin1@org1.test', m.fx.p1],
    ]);
    expect(entries[0]!.before).toMatchObject({ rooms: 3, areaM2: '70', address: 'Street P1, st. tv' });
    expect(entries[0]!.after).toMatchObject({ rooms: 4, areaM2: '72.5' });
  });

  it('updateMeasurementPoint: the same roles; refusals change nothing', async () => {
    let k = 0;
    const codes = await m.matrix(POINT, () => {
      k += 1;
      return { i: { id: String(ids.point), name: `Heat ${k}`, room: k === 1 ? 'Hall' : null } };
    });
    expect(codes).toEqual(P1_ONLY);
    const [point] = await m.database.db
      .select()
      .from(measurementPoints)
      .where(eq(measurementPoints.id, ids.point));
    expect(point).toMatchObject({ name: 'Heat 2', room: null });
    expect(await audits('measurement_point.update')).toBe(2);
  });

  it('updateMeterSettings: the same roles; refusals change nothing', async () => {
    let k = 0;
    const codes = await m.matrix(SETTINGS, () => {
      k += 1;
      return {
        i: {
          id: String(ids.meter),
          radioId: `RADIO-${k}`,
          rolloverDigits: 5 + k,
          resetOn: '06-01',
          installedAt: '2024-01-01T00:00:00Z',
        },
      };
    });
    expect(codes).toEqual(P1_ONLY);
    const [meter] = await m.database.db.select().from(meters).where(eq(meters.id, ids.meter));
    expect(meter).toMatchObject({ radioId: 'RADIO-2', rolloverDigits: 7, resetOn: '06-01', removedAt: null });
    const [last] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'meter.update'))
      .orderBy(auditLog.id)
      .offset(1);
    expect(last!.before).toMatchObject({ radioId: 'RADIO-1', rolloverDigits: 6 });
    expect(last!.after).toMatchObject({ radioId: 'RADIO-2', rolloverDigits: 7, resetOn: '06-01' });
  });

  it('swapMeter: refused for the others without a change; P1’s manager and the admin swap in turn', async () => {
    const swap = (meterId: number, newMeter: string, at: string) => ({
      i: { meterId: String(meterId), at, endValue: '300', newMeter, startValue: '0.5' },
    });
    for (const who of ['managerElsewhere', 'otherOrgAdmin', 'tenant', 'anonymous'] as const) {
      const r = await m.as(who, SWAP, swap(ids.meter, `X-${who}`, '2025-03-01T00:00:00Z'));
      expect(codeOf(r)).toBe(P1_ONLY[who]);
    }
    expect(await m.database.db.select().from(meters).where(eq(meters.number, 'X-tenant'))).toEqual([]);
    const [still] = await m.database.db.select().from(meters).where(eq(meters.id, ids.meter));
    expect(still!.removedAt).toBeNull();

    const first = await m.as('managerHere', SWAP, swap(ids.meter, 'M-P1-HEAT-2', '2025-03-01T00:00:00Z'));
    expect(first.errors).toBeUndefined();
    const second = first.data!.swapMeter as { id: string; number: string; installedAt: string };
    expect(second).toMatchObject({ number: 'M-P1-HEAT-2', installedAt: '2025-03-01T00:00:00.000Z' });
    const third = await m.as(
      'orgAdmin',
      SWAP,
      swap(Number(second.id), 'M-P1-HEAT-3', '2025-04-01T00:00:00Z'),
    );
    expect(third.errors).toBeUndefined();
    expect(third.data!.swapMeter).toMatchObject({
      number: 'M-P1-HEAT-3',
      readings: [{ ts: '2025-04-01T00:00:00.000Z', value: '0.5' }],
      history: [
        { number: 'M-P1-HEAT', removedAt: '2025-03-01T00:00:00.000Z' },
        { number: 'M-P1-HEAT-2', removedAt: '2025-04-01T00:00:00.000Z' },
        { number: 'M-P1-HEAT-3', removedAt: null },
      ],
    });
    expect(await audits('meter.swap')).toBe(2);
  });
});

describe('edits: bad input is refused with a code and changes nothing', () => {
  const flat = async () =>
    (await m.database.db.select().from(apartments).where(eq(apartments.id, ids.apartment)))[0]!;

  it('an apartment with no area, 0 rooms or an empty address', async () => {
    const before = await flat();
    const base = {
      id: String(ids.apartment),
      apartment: 'st. tv',
      address: 'A',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '70',
      rooms: 3,
    };
    for (const change of [{ areaM2: '0' }, { areaM2: 'big' }, { rooms: 0 }, { address: '  ' }]) {
      const r = await m.as('orgAdmin', APARTMENT, { i: { ...base, ...change } });
      expect(codeOf(r), JSON.stringify(change)).toBe('BAD_USER_INPUT');
    }
    expect(await flat()).toEqual(before);
  });

  it('meter settings: a taken radio id, 02-29, 13 digits, a period that ends first or leaves out a reading', async () => {
    const db = m.database.db;
    const [current] = await db.select().from(meters).where(eq(meters.number, 'M-P1-HEAT-3'));
    // Another meter holds RADIO-TAKEN.
    await db.update(meters).set({ radioId: 'RADIO-TAKEN' }).where(eq(meters.number, 'M-P1-HEAT'));
    const base = { id: String(current!.id), installedAt: '2025-04-01T00:00:00Z' };
    const cases: [Record<string, unknown>, string][] = [
      [{ radioId: 'RADIO-TAKEN' }, 'RADIO_ID_TAKEN'],
      [{ resetOn: '02-29' }, 'BAD_USER_INPUT'],
      [{ resetOn: '13-01' }, 'BAD_USER_INPUT'],
      [{ rolloverDigits: 13 }, 'BAD_USER_INPUT'],
      [{ rolloverDigits: 0 }, 'BAD_USER_INPUT'],
      [{ installedAt: '2025-04-01T00:00:00' }, 'BAD_USER_INPUT'],
      [{ removedAt: '2025-04-01T00:00:00Z' }, 'METER_PERIOD_INVALID'],
      // Its start reading is at 2025-04-01: an installation after it would leave it out.
      [{ installedAt: '2025-04-02T00:00:00Z' }, 'METER_PERIOD_INVALID'],
      // Overlaps M-P1-HEAT-2 (March).
      [{ installedAt: '2025-03-15T00:00:00Z' }, 'METER_PERIOD_INVALID'],
    ];
    for (const [change, code] of cases) {
      const r = await m.as('orgAdmin', SETTINGS, { i: { ...base, ...change } });
      expect(codeOf(r), JSON.stringify(change)).toBe(code);
    }
    const [after] = await db.select().from(meters).where(eq(meters.id, current!.id));
    expect(after).toEqual(current);
    // The boundaries that pass: 12 digits, 12-31, removed one second after the last reading's hour.
    const ok = await m.as('orgAdmin', SETTINGS, {
      i: { ...base, rolloverDigits: 12, resetOn: '12-31', removedAt: '2025-04-01T00:00:01Z' },
    });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.updateMeterSettings).toMatchObject({
      rolloverDigits: 12,
      resetOn: '12-31',
      removedAt: '2025-04-01T00:00:01.000Z',
    });
  });

  it('a swap before the installation, onto a taken number or with a bad reading is refused', async () => {
    const db = m.database.db;
    const [live] = await db.select().from(meters).where(eq(meters.number, 'M-P1-HEAT-3'));
    await db.update(meters).set({ removedAt: null }).where(eq(meters.id, live!.id));
    const base = {
      meterId: String(live!.id),
      at: '2025-05-01T00:00:00Z',
      newMeter: 'M-NEW',
      startValue: '1',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ at: '2025-03-20T00:00:00Z' }, 'METER_SWAP_REFUSED'],
      [{ newMeter: 'M-P1-HEAT' }, 'METER_SWAP_REFUSED'],
      [{ startValue: 'abc' }, 'METER_SWAP_REFUSED'],
      [{ at: 'tomorrow' }, 'METER_SWAP_REFUSED'],
      [{ newMeter: ' ' }, 'BAD_USER_INPUT'],
    ];
    for (const [change, code] of cases) {
      const r = await m.as('orgAdmin', SWAP, { i: { ...base, ...change } });
      expect(codeOf(r), JSON.stringify(change)).toBe(code);
    }
    expect(await db.select().from(meters).where(eq(meters.number, 'M-NEW'))).toEqual([]);
    const [still] = await db.select().from(meters).where(eq(meters.id, live!.id));
    expect(still!.removedAt).toBeNull();
  });
});

describe('adminMeter: readings and estimated hours', () => {
  it('counts the estimated hours of the last 30 days of the meter’s point', async () => {
    const db = m.database.db;
    const [live] = await db.select().from(meters).where(eq(meters.number, 'M-P1-HEAT-3'));
    const hour = (h: number) => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - h * 3_600_000);
    await db.insert(hourlyConsumption).values([
      { measurementPointId: ids.point, hourStart: hour(3), value: '1', estimated: false },
      { measurementPointId: ids.point, hourStart: hour(2), value: '1', estimated: true },
      { measurementPointId: ids.point, hourStart: hour(1), value: '1', estimated: true },
      // 31 days ago: outside the window.
      { measurementPointId: ids.point, hourStart: hour(31 * 24), value: '1', estimated: true },
    ]);
    const r = await m.as('managerHere', METER, { id: String(live!.id) });
    expect(r.data!.adminMeter).toMatchObject({ estimatedHours: 2, hoursWithValues: 3 });
    const old = await m.as('managerHere', METER, { id: String(ids.meter) });
    expect(old.data!.adminMeter).toMatchObject({
      readings: [
        { ts: '2025-03-01T00:00:00.000Z', value: '300' },
        { ts: '2025-02-01T00:00:00.000Z', value: '250.5' },
        { ts: '2025-01-01T00:00:00.000Z', value: '100' },
      ],
      // Removed in March 2025: none of the last 30 days are its.
      estimatedHours: 0,
      hoursWithValues: 0,
    });
    expect(
      (
        await db
          .select({ n: count() })
          .from(registerReadings)
          .where(and(eq(registerReadings.meterId, live!.id)))
      )[0]!.n,
    ).toBe(1);
  });
});
