/**
 * The console's prices and fixed charges (issue 21, /admin/prices). Role matrix × {organisation admin, manager of
 * P1, manager of P2, another organisation's admin, tenant, anonymous}; the preview before a save; history never
 * rewritten silently (new periods, confirmed corrections); refusals change nothing. A CO₂ factor's correction and
 * new period: admin-prices-co2.test.ts. Fixture: tests/api/helpers/adminRates.ts.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prices } from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, P1_ONLY } from './helpers/adminMatrix.ts';
import { openImpact, type RatesFixture, S, setUpRates } from './helpers/adminRates.ts';

let m: AdminMatrix;
let priceId: number;
let co2Id: number;
let audits: () => Promise<number>;
let auditOf: RatesFixture['auditOf'];
const priceRows = () =>
  m.database.db
    .select({ price: prices.price, validFrom: prices.validFrom, validTo: prices.validTo })
    .from(prices)
    .where(eq(prices.quantity, 'heat-energy'))
    .orderBy(asc(prices.validFrom));

beforeAll(async () => {
  ({ m, priceId, co2Id, audits, auditOf } = await setUpRates());
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
    expect(codes).toEqual(P1_ONLY);
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
    const p = () => String(m.fx.p1);
    expect(
      await m.matrix(S.preview, () => ({ i: { ...future, propertyId: p(), validFrom: '2098-06-01' } })),
    ).toEqual(P1_ONLY);
    expect(
      await m.matrix(S.previewCorrection, () => ({ i: { id: String(priceId), kind: 'PRICE', amount: '2' } })),
    ).toEqual(P1_ONLY);
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
    ).toEqual(P1_ONLY);
    expect(
      await m.matrix(S.previewCorrection, () => ({
        i: { id: String(co2Id), kind: 'CO2_FACTOR', amount: '2' },
      })),
    ).toEqual(P1_ONLY);
    expect(await audits()).toBe(before.audit);
    expect(await priceRows()).toEqual(before.rows);
  });
});

describe('a new price period', () => {
  it('previews a backdated period: the months to now, the tenancies with a heat meter, needs confirmation', async () => {
    const r = await m.as('managerHere', S.preview, {
      i: { ...future, propertyId: String(m.fx.p1), validFrom: '2025-03-01' },
    });
    expect(r.data!.previewRatePeriod).toEqual(openImpact('2025-03-01'));
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
    // P1's manager reached the history check: a second period on the same day would rewrite the first one.
    expect(codes).toEqual({ ...P1_ONLY, managerHere: 'RATE_HISTORY_LOCKED' });
    expect(await priceRows()).toEqual([
      { price: '1.00', validFrom: '2025-01-01', validTo: '2099-01-01' },
      { price: '1.25', validFrom: '2099-01-01', validTo: null },
    ]);
    expect(await audits()).toBe(before + 1);
    const entry = await auditOf('price.add_period');
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
    const entry = await auditOf('fixed_charge.add_period');
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
    expect(codes).toEqual(P1_ONLY);
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
    const entry = await auditOf('price.correct');
    expect(entry).toMatchObject({
      reason: 'Supplier invoice corrected',
      before: { amount: '1.00' },
      after: { amount: '1.10' },
    });
    expect(await audits()).toBe(before + 2);
  });
});
