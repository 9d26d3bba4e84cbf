/**
 * The console's prices, fixed charges and CO₂ factors (issue 21, /admin/prices). Role matrix × {organisation
 * admin, manager of P1, manager of P2, another organisation's admin, tenant, anonymous}; the preview before a
 * save; history never rewritten silently (new periods, confirmed corrections); refusals change nothing.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToday } from '../../src/server/admin/rateImpact.ts';
import {
  apartments,
  auditLog,
  fixedCharges,
  measurementPoints,
  prices,
  propertyCo2Factors,
  tenancies,
} from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, setUpAdminMatrix, UNAUTH } from './helpers/adminMatrix.ts';

const IMPACT =
  'from to months alsoFuture issuedReports changesPast tenancies { reference apartment start end }';
const RATES =
  'propertyId prices { id quantity amount currency validFrom validTo } fixedCharges { id chargeKind quantity amount validFrom validTo } co2Factors { id quantity amount currency validFrom validTo }';
const S = {
  rates: `query ($p: ID!) { propertyRates(propertyId: $p) { ${RATES} } }`,
  preview: `query ($i: RatePeriodInput!) { previewRatePeriod(input: $i) { ${IMPACT} } }`,
  add: `mutation ($i: RatePeriodInput!, $c: Boolean, $r: String) { addRatePeriod(input: $i, confirm: $c, reason: $r) { ${RATES} } }`,
  previewCorrection: `query ($i: RateCorrectionInput!) { previewRateCorrection(input: $i) { ${IMPACT} } }`,
  correct: `mutation ($i: RateCorrectionInput!, $c: Boolean, $r: String) { correctRate(input: $i, confirm: $c, reason: $r) { ${RATES} } }`,
} as const;

let m: AdminMatrix;
let priceId: number;
let co2Id: number;
const audits = async () => (await m.database.db.select().from(auditLog)).length;
const priceRows = () =>
  m.database.db
    .select({ price: prices.price, validFrom: prices.validFrom, validTo: prices.validTo })
    .from(prices)
    .where(eq(prices.quantity, 'heat-energy'))
    .orderBy(asc(prices.validFrom));

/** The months from 2025-03 to the current one, as the preview lists them. */
function monthsFrom(first: string): string[] {
  const out: string[] = [];
  const end = localToday().slice(0, 7);
  let [y, mo] = first.split('-').map(Number) as [number, number];
  for (let key = first; key <= end; ) {
    out.push(key);
    mo += 1;
    if (mo > 12) [y, mo] = [y + 1, 1];
    key = `${y}-${String(mo).padStart(2, '0')}`;
  }
  return out;
}

beforeAll(async () => {
  m = await setUpAdminMatrix();
  const db = m.database.db;
  const [apt] = await db.select().from(apartments).where(eq(apartments.propertyId, m.fx.p1));
  await db.insert(measurementPoints).values({
    propertyId: m.fx.p1,
    apartmentId: apt!.id,
    quantity: 'heat-energy',
    unit: 'kilo-watt-hour',
    name: 'Heat',
    readingKind: 'register',
  });
  // A second flat of P1 without a heat meter: a heat price does not touch its tenancy.
  const [apt2] = await db
    .insert(apartments)
    .values({
      propertyId: m.fx.p1,
      uniqueId: 'U-P1-2',
      apartment: '1. tv',
      address: 'Street P1, 1. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: '50',
      rooms: 2,
    })
    .returning();
  await db.insert(tenancies).values({ apartmentId: apt2!.id, tenancyId: 'T-P1-2', start: '2025-02-01' });
  const [p] = await db
    .insert(prices)
    .values({
      propertyId: m.fx.p1,
      quantity: 'heat-energy',
      price: '1.00',
      currency: 'DKK',
      validFrom: '2025-01-01',
    })
    .returning();
  priceId = p!.id;
  // A factor from before validity dates: valid from the beginning.
  const [f] = await db
    .insert(propertyCo2Factors)
    .values({ propertyId: m.fx.p1, quantity: 'heat-energy', gramPerQuantityUnit: '100' })
    .returning();
  co2Id = f!.id;
  await db.insert(fixedCharges).values({
    propertyId: m.fx.p1,
    kind: 'reading-service',
    quantity: null,
    amountPerYear: '240',
    currency: 'DKK',
    validFrom: '2025-01-01',
  });
});
afterAll(async () => {
  await m?.database.close();
});

const future = {
  kind: 'PRICE',
  quantity: 'heat-energy',
  amount: '1.25',
  currency: 'DKK',
  validFrom: '2099-01-01',
};

describe('reading the rates', () => {
  it('the property’s admin and manager read them; others are refused', async () => {
    const codes = await m.matrix(S.rates, () => ({ p: String(m.fx.p1) }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    const r = await m.as('managerHere', S.rates, { p: String(m.fx.p1) });
    expect(r.data!.propertyRates).toEqual({
      propertyId: String(m.fx.p1),
      prices: [
        {
          id: String(priceId),
          quantity: 'heat-energy',
          amount: '1.00',
          currency: 'DKK',
          validFrom: '2025-01-01',
          validTo: null,
        },
      ],
      fixedCharges: [
        expect.objectContaining({
          chargeKind: 'reading-service',
          quantity: null,
          amount: '240',
          validTo: null,
        }),
      ],
      co2Factors: [
        {
          id: String(co2Id),
          quantity: 'heat-energy',
          amount: '100',
          currency: null,
          validFrom: null,
          validTo: null,
        },
      ],
    });
  });
});

describe('the previews', () => {
  it('answer the property’s admin and manager only, and write nothing', async () => {
    const before = { audit: await audits(), rows: await priceRows() };
    const all = {
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    };
    const p = () => String(m.fx.p1);
    expect(
      await m.matrix(S.preview, () => ({ i: { ...future, propertyId: p(), validFrom: '2098-06-01' } })),
    ).toEqual(all);
    expect(
      await m.matrix(S.previewCorrection, () => ({ i: { id: String(priceId), kind: 'PRICE', amount: '2' } })),
    ).toEqual(all);
    expect(
      await m.matrix(S.preview, () => ({
        i: {
          kind: 'CO2_FACTOR',
          quantity: 'heat-energy',
          amount: '90',
          propertyId: p(),
          validFrom: '2098-06-01',
        },
      })),
    ).toEqual(all);
    expect(
      await m.matrix(S.previewCorrection, () => ({
        i: { id: String(co2Id), kind: 'CO2_FACTOR', amount: '2' },
      })),
    ).toEqual(all);
    expect(await audits()).toBe(before.audit);
    expect(await priceRows()).toEqual(before.rows);
  });
});

describe('a new price period', () => {
  it('previews a backdated period: the months to now, the tenancies with a heat meter, needs confirmation', async () => {
    const r = await m.as('managerHere', S.preview, {
      i: { ...future, propertyId: String(m.fx.p1), validFrom: '2025-03-01' },
    });
    expect(r.data!.previewRatePeriod).toEqual({
      from: '2025-03-01',
      to: null,
      months: monthsFrom('2025-03'),
      alsoFuture: true,
      issuedReports: 0,
      changesPast: true,
      tenancies: [{ reference: 'T-P1-1', apartment: 'st. tv', start: '2025-01-01', end: null }],
    });
    // The other side: a fixed charge of the whole tenancy touches both flats.
    const all = await m.as('managerHere', S.preview, {
      i: {
        kind: 'FIXED_CHARGE',
        chargeKind: 'reading-service',
        amount: '300',
        currency: 'DKK',
        propertyId: String(m.fx.p1),
        validFrom: '2025-03-01',
      },
    });
    expect(
      (all.data!.previewRatePeriod as { tenancies: { reference: string }[] }).tenancies.map(
        (t) => t.reference,
      ),
    ).toEqual(['T-P1-2', 'T-P1-1']);
    const ahead = await m.as('orgAdmin', S.preview, { i: { ...future, propertyId: String(m.fx.p1) } });
    expect(ahead.data!.previewRatePeriod).toMatchObject({ months: [], alsoFuture: true, changesPast: false });
  });

  it('the property’s admin adds it, the period before ends there, audited; others are refused and nothing changes', async () => {
    const before = await audits();
    const codes = await m.matrix(S.add, () => ({ i: { ...future, propertyId: String(m.fx.p1) } }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      // Reached the history check: a second period on the same day would rewrite the first one.
      managerHere: 'RATE_HISTORY_LOCKED',
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    expect(await priceRows()).toEqual([
      { price: '1.00', validFrom: '2025-01-01', validTo: '2099-01-01' },
      { price: '1.25', validFrom: '2099-01-01', validTo: null },
    ]);
    expect(await audits()).toBe(before + 1);
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'price.add_period'));
    expect(entry).toMatchObject({
      actor: 'admin1@org1.test',
      propertyId: m.fx.p1,
      reason: null,
      before: { closed: { id: priceId, amount: '1.00', validTo: null } },
      after: {
        closed: { id: priceId, amount: '1.00', validTo: '2099-01-01' },
        added: { amount: '1.25', validFrom: '2099-01-01', validTo: null },
      },
    });
  });

  it('refuses bad input, an earlier start and an unconfirmed backdated period, changing nothing', async () => {
    const before = { audit: await audits(), rows: await priceRows() };
    const add = (i: Record<string, unknown>, c?: boolean, r?: string) =>
      m.as('managerHere', S.add, { i: { ...future, propertyId: String(m.fx.p1), ...i }, c, r });
    const bad = await add({ amount: '-1', quantity: 'bogus' });
    expect(codeOf(bad)).toBe('INVALID_RATE');
    expect(
      (bad.errors![0]!.extensions as { problems: { field: string }[] }).problems.map((p) => p.field).sort(),
    ).toEqual(['amount', 'quantity']);
    expect(codeOf(await add({ validFrom: '2025-02-30' }))).toBe('INVALID_RATE');
    expect(codeOf(await add({ validFrom: '2024-12-01' }, true, 'A good reason'))).toBe('RATE_HISTORY_LOCKED');
    expect(
      codeOf(
        await m.as('managerHere', S.preview, {
          i: { ...future, propertyId: String(m.fx.p1), validFrom: '2099-01-01' },
        }),
      ),
    ).toBe('RATE_HISTORY_LOCKED');
    expect(
      codeOf(
        await add({
          kind: 'FIXED_CHARGE',
          chargeKind: 'reading-service',
          quantity: null,
          validFrom: '2025-07-01',
        }),
      ),
    ).toBe('CONFIRMATION_REQUIRED');
    expect(
      codeOf(
        await add(
          { kind: 'FIXED_CHARGE', chargeKind: 'reading-service', quantity: null, validFrom: '2025-07-01' },
          true,
          'abc',
        ),
      ),
    ).toBe('CONFIRMATION_REQUIRED');
    expect(codeOf(await add({ propertyId: String(m.fx.p3) }))).toBe('FORBIDDEN');
    expect(codeOf(await add({ propertyId: '999999' }))).toBe('FORBIDDEN');
    expect(await audits()).toBe(before.audit);
    expect(await priceRows()).toEqual(before.rows);
  });

  it('a confirmed backdated fixed charge is a new period with its reason in the audit log', async () => {
    const r = await m.as('managerHere', S.add, {
      i: {
        kind: 'FIXED_CHARGE',
        chargeKind: 'reading-service',
        amount: '300',
        currency: 'DKK',
        propertyId: String(m.fx.p1),
        validFrom: '2025-07-01',
      },
      c: true,
      r: 'New reading contract from July',
    });
    expect(codeOf(r)).toBeUndefined();
    expect((r.data!.addRatePeriod as { fixedCharges: unknown[] }).fixedCharges).toEqual([
      expect.objectContaining({ amount: '240', validFrom: '2025-01-01', validTo: '2025-07-01' }),
      expect.objectContaining({ amount: '300', validFrom: '2025-07-01', validTo: null }),
    ]);
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'fixed_charge.add_period'));
    expect(entry).toMatchObject({ actor: 'manager1@org1.test', reason: 'New reading contract from July' });
  });
});

describe('corrections', () => {
  it('a price correction previews its own period and needs confirm and a reason; audited before and after', async () => {
    const preview = await m.as('orgAdmin', S.previewCorrection, {
      i: { id: String(priceId), kind: 'PRICE', amount: '1.10' },
    });
    expect(preview.data!.previewRateCorrection).toMatchObject({
      from: '2025-01-01',
      to: '2099-01-01',
      changesPast: true,
    });
    const before = await audits();
    const codes = await m.matrix(S.correct, () => ({
      i: { id: String(priceId), kind: 'PRICE', amount: '1.10' },
      c: true,
      r: 'Supplier invoice corrected',
    }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    expect(await audits()).toBe(before + 2);
    expect(
      codeOf(await m.as('orgAdmin', S.correct, { i: { id: String(priceId), kind: 'PRICE', amount: '9' } })),
    ).toBe('CONFIRMATION_REQUIRED');
    expect(
      codeOf(
        await m.as('orgAdmin', S.correct, {
          i: { id: '999999', kind: 'PRICE', amount: '9' },
          c: true,
          r: 'A good reason',
        }),
      ),
    ).toBe('FORBIDDEN');
    expect((await priceRows())[0]).toEqual({ price: '1.10', validFrom: '2025-01-01', validTo: '2099-01-01' });
    const [entry] = await m.database.db.select().from(auditLog).where(eq(auditLog.action, 'price.correct'));
    expect(entry).toMatchObject({
      reason: 'Supplier invoice corrected',
      before: { amount: '1.00' },
      after: { amount: '1.10' },
    });
    expect(await audits()).toBe(before + 2);
  });

  it('a CO₂ factor from the beginning: its correction previews from the first tenancy, confirmed, audited', async () => {
    const i = { id: String(co2Id), kind: 'CO2_FACTOR', amount: '95.5' };
    const preview = await m.as('managerHere', S.previewCorrection, { i });
    expect(preview.data!.previewRateCorrection).toMatchObject({
      from: '2025-01-01',
      to: null,
      months: monthsFrom('2025-01'),
      changesPast: true,
    });
    const before = await audits();
    expect(codeOf(await m.as('managerHere', S.correct, { i }))).toBe('CONFIRMATION_REQUIRED');
    const codes = await m.matrix(S.correct, () => ({ i, c: true, r: 'Utility’s 2025 declaration' }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      managerHere: undefined,
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    expect(await audits()).toBe(before + 2);
    const rows = await m.database.db.select().from(propertyCo2Factors);
    expect(rows).toEqual([
      {
        id: co2Id,
        propertyId: m.fx.p1,
        quantity: 'heat-energy',
        gramPerQuantityUnit: '95.5',
        validFrom: null,
        validTo: null,
      },
    ]);
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'co2_factor.correct'));
    expect(entry).toMatchObject({
      subjectType: 'co2_factor',
      reason: 'Utility’s 2025 declaration',
      before: { kind: 'CO2_FACTOR', amount: '100', validFrom: null },
      after: { amount: '95.5' },
    });
  });
});

describe('a new CO₂ factor period', () => {
  const co2 = (validFrom: string, extra: Record<string, unknown> = {}) => ({
    i: {
      kind: 'CO2_FACTOR',
      quantity: 'heat-energy',
      amount: '80',
      propertyId: String(m.fx.p1),
      validFrom,
      ...extra,
    },
  });
  const co2Rows = () =>
    m.database.db
      .select({
        grams: propertyCo2Factors.gramPerQuantityUnit,
        validFrom: propertyCo2Factors.validFrom,
        validTo: propertyCo2Factors.validTo,
      })
      .from(propertyCo2Factors)
      .orderBy(asc(propertyCo2Factors.id));

  it('previews the months from its start and the tenancies with the quantity', async () => {
    const r = await m.as('managerHere', S.preview, co2('2025-03-15'));
    expect(r.data!.previewRatePeriod).toEqual({
      from: '2025-03-15',
      to: null,
      months: monthsFrom('2025-03'),
      alsoFuture: true,
      issuedReports: 0,
      changesPast: true,
      tenancies: [{ reference: 'T-P1-1', apartment: 'st. tv', start: '2025-01-01', end: null }],
    });
  });

  it('refuses a currency, a missing quantity and an unconfirmed backdated start, changing nothing', async () => {
    const before = { audit: await audits(), rows: await co2Rows() };
    const add = (vars: ReturnType<typeof co2>, c?: boolean, r?: string) =>
      m.as('managerHere', S.add, { ...vars, c, r });
    const money = await add(co2('2099-01-01', { currency: 'DKK' }));
    expect(codeOf(money)).toBe('INVALID_RATE');
    expect((money.errors![0]!.extensions as { problems: { field: string }[] }).problems).toEqual([
      expect.objectContaining({ field: 'currency' }),
    ]);
    expect(codeOf(await add(co2('2099-01-01', { quantity: null })))).toBe('INVALID_RATE');
    expect(codeOf(await add(co2('2099-01-01', { amount: '-5' })))).toBe('INVALID_RATE');
    expect(codeOf(await add(co2('2025-03-15')))).toBe('CONFIRMATION_REQUIRED');
    expect(codeOf(await add(co2('2025-03-15', { propertyId: String(m.fx.p3) }), true, 'A good reason'))).toBe(
      'FORBIDDEN',
    );
    expect(await audits()).toBe(before.audit);
    expect(await co2Rows()).toEqual(before.rows);
  });

  it('the property’s admin adds it mid-month: the factor from the beginning ends there, audited', async () => {
    const before = await audits();
    const codes = await m.matrix(S.add, () => ({
      ...co2('2025-03-15'),
      c: true,
      r: 'New fuel from 15 March',
    }));
    expect(codes).toEqual({
      orgAdmin: undefined,
      // Reached the history check: a second period on the same day would rewrite the first one.
      managerHere: 'RATE_HISTORY_LOCKED',
      managerElsewhere: 'FORBIDDEN',
      otherOrgAdmin: 'FORBIDDEN',
      ...UNAUTH,
    });
    expect(await co2Rows()).toEqual([
      { grams: '95.5', validFrom: null, validTo: '2025-03-15' },
      { grams: '80', validFrom: '2025-03-15', validTo: null },
    ]);
    expect(await audits()).toBe(before + 1);
    const [entry] = await m.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'co2_factor.add_period'));
    expect(entry).toMatchObject({
      actor: 'admin1@org1.test',
      reason: 'New fuel from 15 March',
      before: { closed: { id: co2Id, amount: '95.5', validFrom: null, validTo: null } },
      after: {
        closed: { id: co2Id, validTo: '2025-03-15' },
        added: { kind: 'CO2_FACTOR', amount: '80', validFrom: '2025-03-15', validTo: null, currency: null },
      },
    });
    // An earlier start would rewrite the history: refused.
    expect(codeOf(await m.as('orgAdmin', S.add, { ...co2('2025-02-01'), c: true, r: 'A good reason' }))).toBe(
      'RATE_HISTORY_LOCKED',
    );
  });
});
