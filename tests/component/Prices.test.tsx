/**
 * The console's prices island (src/islands/admin/Prices.tsx) with CO₂ factor periods: the one period table shows
 * a factor from the beginning and a dated one; a new CO₂ period goes through the one change form (preview of
 * the months and tenancies, confirmation and reason for a backdated start) and reaches the server as a
 * CO2_FACTOR period without a currency; a correction of the factor from the beginning is a confirmed correction.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AddRatePeriodDocument,
  type AddRatePeriodMutationVariables,
  AdminPropertiesDocument,
  CorrectRateDocument,
  type CorrectRateMutationVariables,
  PreviewRateCorrectionDocument,
  PreviewRatePeriodDocument,
  type PreviewRatePeriodQueryVariables,
  PropertyRatesDocument,
  type RatePeriodFieldsFragment,
} from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, calls, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: Prices } = await import('../../src/islands/admin/Prices.tsx');

const period = (over: Partial<RatePeriodFieldsFragment>): RatePeriodFieldsFragment => ({
  id: '1',
  kind: 'CO2_FACTOR',
  quantity: 'heat-energy',
  chargeKind: null,
  amount: '100',
  currency: null,
  validFrom: null,
  validTo: null,
  ...over,
});
let co2Periods = [
  period({ validTo: '2025-03-15' }),
  period({ id: '2', amount: '80', validFrom: '2025-03-15' }),
];
const rates = () => ({
  propertyRates: {
    propertyId: '7',
    prices: [period({ id: '9', kind: 'PRICE', amount: '1.25', currency: 'DKK', validFrom: '2025-01-01' })],
    fixedCharges: [],
    co2Factors: co2Periods,
  },
});
const impact = {
  from: '2025-11-15',
  to: null,
  months: ['2025-11', '2025-12'],
  alsoFuture: true,
  issuedReports: 1,
  changesPast: true,
  tenancies: [{ id: '11', reference: 'T-1001', apartment: '1 tv', start: '2024-01-01', end: null }],
};

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  co2Periods = [
    period({ validTo: '2025-03-15' }),
    period({ id: '2', amount: '80', validFrom: '2025-03-15' }),
  ];
  answers.set(AdminPropertiesDocument, () => ({
    properties: [
      { id: '7', number: 'P-107', name: 'Lindely', address: 'Lindevej 1', zipcode: '8000', city: 'Aarhus' },
    ],
  }));
  answers.set(PropertyRatesDocument, rates);
  answers.set(PreviewRatePeriodDocument, () => ({ previewRatePeriod: impact }));
  answers.set(PreviewRateCorrectionDocument, () => ({
    previewRateCorrection: { ...impact, from: '2024-01-01' },
  }));
  answers.set(AddRatePeriodDocument, (v: AddRatePeriodMutationVariables) => {
    co2Periods = [
      co2Periods[0]!,
      { ...co2Periods[1]!, validTo: v.input.validFrom },
      period({ id: '3', amount: v.input.amount, validFrom: v.input.validFrom }),
    ];
    return { addRatePeriod: rates().propertyRates };
  });
  answers.set(CorrectRateDocument, () => ({ correctRate: rates().propertyRates }));
});

async function choose() {
  render(<Prices lang="en" />);
  const select = await screen.findByLabelText('Property');
  await waitFor(() => expect(within(select).getAllByRole('option').length).toBeGreaterThan(1));
  fireEvent.change(select, { target: { value: '7' } });
  return screen.findByTestId('co2-table');
}

describe('CO₂ factor periods on the prices page', () => {
  it('lists the factor from the beginning and the dated one in the shared period table', async () => {
    const table = await choose();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('from the beginning to 2025-03-15 (exclusive)'),
      expect.stringContaining('from 2025-03-15'),
    ]);
    expect(rows[0]!.textContent).toContain('100');
    expect(rows[0]!.textContent).not.toContain('DKK');
    expect(within(screen.getByTestId('prices-table')).getByText('1.25 DKK')).toBeTruthy();
  });

  it('a new CO₂ period: the preview, the confirmation, then a CO2_FACTOR period without a currency', async () => {
    await choose();
    fireEvent.click(screen.getByRole('button', { name: 'New CO₂ factor period' }));
    const form = await screen.findByTestId('change-form');
    expect(within(form).getByRole('heading').textContent).toBe('New CO₂ factor period');
    expect(within(form).queryByLabelText('Currency')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Quantity'), { target: { value: 'heat-energy' } });
    fireEvent.change(within(form).getByLabelText('Grams of CO₂ per unit'), { target: { value: '75' } });
    fireEvent.change(within(form).getByLabelText('Valid from'), { target: { value: '2025-11-15' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Show what changes' }));
    const shown = await screen.findByTestId('impact');
    expect(shown.textContent).toContain('T-1001');
    expect(lastVariables<PreviewRatePeriodQueryVariables>(PreviewRatePeriodDocument).input).toEqual({
      propertyId: '7',
      kind: 'CO2_FACTOR',
      quantity: 'heat-energy',
      chargeKind: null,
      amount: '75',
      currency: null,
      validFrom: '2025-11-15',
    });
    const save = within(form).getByRole('button', { name: 'Save the change' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(within(form).getByLabelText('I confirm that past figures change'));
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'New fuel mix' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await screen.findByText('Saved. The change is in the audit log.')).toBeTruthy();
    expect(lastVariables<AddRatePeriodMutationVariables>(AddRatePeriodDocument)).toMatchObject({
      input: { kind: 'CO2_FACTOR', amount: '75', currency: null, validFrom: '2025-11-15' },
      confirm: true,
      reason: 'New fuel mix',
    });
    await waitFor(() => expect(within(screen.getByTestId('co2-table')).getAllByRole('row')).toHaveLength(4));
  });

  it('correcting the factor from the beginning is a confirmed correction of its own period', async () => {
    await choose();
    fireEvent.click(
      screen.getByRole('button', {
        name: 'Correct Heat energy from the beginning to 2025-03-15 (exclusive)',
      }),
    );
    const form = await screen.findByTestId('change-form');
    expect(within(form).getByRole('heading').textContent).toBe('Correct heat-energy from the beginning');
    const grams = within(form).getByLabelText('Grams of CO₂ per unit') as HTMLInputElement;
    expect(grams.value).toBe('100');
    fireEvent.change(grams, { target: { value: '95' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Show what changes' }));
    await screen.findByTestId('impact');
    fireEvent.click(within(form).getByLabelText('I confirm that past figures change'));
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'Declaration fixed' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save the change' }));
    await screen.findByText('Saved. The change is in the audit log.');
    expect(lastVariables<CorrectRateMutationVariables>(CorrectRateDocument)).toEqual({
      input: { id: '1', kind: 'CO2_FACTOR', amount: '95' },
      confirm: true,
      reason: 'Declaration fixed',
    });
    expect(calls.some((c) => c.document === AddRatePeriodDocument)).toBe(false);
  });
});
