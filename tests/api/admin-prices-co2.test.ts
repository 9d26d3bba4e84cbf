/**
 * The console's CO₂ factors (issue 21, /admin/prices): a correction of the factor from the beginning, then a new
 * period after it (in this order: the new period closes the corrected factor). Role matrix × {organisation admin,
 * manager of P1, manager of P2, another organisation's admin, tenant, anonymous}; refusals change nothing.
 * Prices and fixed charges: admin-prices.test.ts. Fixture: tests/api/helpers/adminRates.ts.
 */
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyCo2Factors } from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import { type AdminMatrix, P1_ONLY } from './helpers/adminMatrix.ts';
import { monthsFrom, openImpact, type RatesFixture, S, setUpRates } from './helpers/adminRates.ts';

let m: AdminMatrix;
let co2Id: number;
let audits: () => Promise<number>;
let auditOf: RatesFixture['auditOf'];

beforeAll(async () => {
  ({ m, co2Id, audits, auditOf } = await setUpRates());
});
afterAll(async () => {
  await m?.database.close();
});

describe('corrections', () => {
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
    expect(codes).toEqual(P1_ONLY);
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
    const entry = await auditOf('co2_factor.correct');
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
    expect(r.data!.previewRatePeriod).toEqual(openImpact('2025-03-15'));
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
    // P1's manager reached the history check: a second period on the same day would rewrite the first one.
    expect(codes).toEqual({ ...P1_ONLY, managerHere: 'RATE_HISTORY_LOCKED' });
    expect(await co2Rows()).toEqual([
      { grams: '95.5', validFrom: null, validTo: '2025-03-15' },
      { grams: '80', validFrom: '2025-03-15', validTo: null },
    ]);
    expect(await audits()).toBe(before + 1);
    const entry = await auditOf('co2_factor.add_period');
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
