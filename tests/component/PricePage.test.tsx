/**
 * The price and cost island (src/islands/consumption/PricePage.tsx): what it asks the tenant backend for (a COST
 * graph, cost KPIs, prices, fixed charges, two projections, all for the tenancy's unit), the cost total, the
 * price periods with their last day, the fixed charges with the period's share and a total, the projections, and
 * a failed graph shown as such.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ConsumptionProjectionDocument,
  FixedChargesDocument,
  QuantityPricesDocument,
  TenantGraphDocument,
  TenantUnitsDocument,
  UnitQuantityKpisDocument,
} from '../../src/client/gql/tenant.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, callsOf, resetBackend, session } from './tenantBackend.ts';

vi.mock('../../src/islands/shared/useSession.ts', () => import('./tenantBackend.ts'));

const { default: PricePage } = await import('../../src/islands/consumption/PricePage.tsx');

const descriptor = { quantity: 'heat-energy', normalized: false, expressedAs: null };
const unit = {
  unit: { id: '5', unitUniqueId: 'U-5', name: 'Lindevej 1, 1 tv', tenantName: 'Ane Hansen' },
  path: [{ property: { id: '7', number: 'P-107', settings: [{ kind: 'HOURLY_VALUES' }], co2Factors: [] } }],
};
const kpi = {
  quantityDescriptor: descriptor,
  total: 1234.5,
  previousPeriod: 1100,
  previousYear: null,
  propertyComparison: null,
  partial: false,
  previousYearClimateCorrected: null,
  totalNormalYear: null,
  climateCorrection: null,
  kwhEstimate: null,
  kwhEstimateMethod: null,
  kwhPerUnit: null,
  estimatedHours: 0,
  rooms: [],
  meters: [],
};
const projection = (span: string) => ({
  quantityDescriptor: descriptor,
  periodBegin: span === 'MONTH' ? '2025-03-01' : '2025-01-01',
  periodEnd: span === 'MONTH' ? '2025-03-31' : '2025-12-31',
  daysElapsed: 10,
  daysTotal: span === 'MONTH' ? 31 : 365,
  soFar: 300,
  costSoFar: 240,
  projected: span === 'MONTH' ? 930 : null,
  projectedCost: span === 'MONTH' ? 744 : null,
  fixedCharges: 0,
  currency: 'DKK',
  method: 'PACE',
});

let graphFails = false;

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  graphFails = false;
  session.tenancy = {
    id: '11',
    apartment: { uniqueId: 'U-5' },
    meterUnits: [{ kind: 'energy' }],
    dataAvailability: { start: '2024-01-01' },
  };
  answers.set(TenantUnitsDocument, () => ({ tenantUnits: [unit] }));
  answers.set(TenantGraphDocument, () => {
    if (graphFails) throw new Error('Internal server error');
    return {
      tenantGraph: {
        timestamps: ['2025-03-01T00:00', '2025-03-02T00:00'],
        partial: [false, false],
        graphs: [
          {
            type: 'COST',
            object: {
              id: '5',
              kind: 'UNIT',
              unit: { id: '5', name: 'Lindevej 1, 1 tv' },
              group: null,
              measurementPoint: null,
            },
            consumption: [
              {
                quantityDescriptor: descriptor,
                values: [600, 634.5],
                relatedValues: [{ type: 'LAST_PERIOD', values: [550, 550] }],
                climateCorrection: null,
                kwhEstimateMethod: null,
                estimated: [false, false],
              },
            ],
          },
        ],
      },
    };
  });
  answers.set(UnitQuantityKpisDocument, () => ({ unitQuantityKpis: [kpi] }));
  answers.set(QuantityPricesDocument, () => ({
    quantityPrices: [
      {
        quantity: 'heat-energy',
        price: 0.75,
        currency: 'DKK',
        validFrom: '2025-01-01',
        validTo: '2025-07-01',
      },
      { quantity: 'heat-energy', price: 0.8, currency: 'DKK', validFrom: '2025-07-01', validTo: null },
    ],
  }));
  answers.set(FixedChargesDocument, () => ({
    fixedCharges: {
      timestamps: ['2025-03-01'],
      totals: [150],
      charges: [
        {
          kind: 'subscription',
          quantity: 'heat-energy',
          amountPerYear: 1200,
          currency: 'DKK',
          validFrom: '2025-01-01',
          validTo: null,
          values: [100],
        },
        {
          kind: 'water-fee',
          quantity: null,
          amountPerYear: 600,
          currency: 'DKK',
          validFrom: '2025-01-01',
          validTo: null,
          values: [50],
        },
      ],
    },
  }));
  answers.set(ConsumptionProjectionDocument, (v: { input: { span: string } }) => ({
    consumptionProjection: [projection(v.input.span)],
  }));
});

const rowsOf = (table: HTMLElement) =>
  [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
  );

describe('the price and cost island', () => {
  it("asks for the unit's cost graph, cost KPIs, prices, fixed charges and both projections", async () => {
    render(<PricePage lang="en" quantity="heat-energy" />);
    await waitFor(() => expect(callsOf(ConsumptionProjectionDocument)).toHaveLength(2));
    const graph = callsOf(TenantGraphDocument)[0]!.variables.graph as Record<string, unknown>;
    expect(graph).toMatchObject({
      graphType: 'COST',
      objects: [{ kind: 'UNIT', id: '5' }],
      quantities: ['heat-energy'],
      related: ['LAST_PERIOD'],
    });
    expect(callsOf(UnitQuantityKpisDocument)[0]!.variables.input).toMatchObject({
      unitId: '5',
      quantities: ['heat-energy'],
      graphType: 'COST',
    });
    expect(callsOf(QuantityPricesDocument)[0]!.variables.input).toMatchObject({ unitId: '5' });
    // The default period is a month: fixed charges per month.
    expect(callsOf(FixedChargesDocument)[0]!.variables.input).toMatchObject({
      unitId: '5',
      resolution: 'MONTH',
    });
    expect(
      callsOf(ConsumptionProjectionDocument)
        .map((c) => (c.variables.input as { span: string }).span)
        .sort(),
    ).toEqual(['MONTH', 'YEAR']);
  });

  it('shows the cost, the prices with their last day, the fixed charges with a total, and the projections', async () => {
    render(<PricePage lang="en" quantity="heat-energy" />);
    const cost = await screen.findByTestId('cost-total');
    await waitFor(() => expect(cost.textContent).toMatch(/1,234\.50/));

    const prices = await screen.findByRole('table', { name: 'Prices' });
    expect(rowsOf(prices)).toEqual([
      ['1 Jan 2025', '30 Jun 2025', expect.stringMatching(/0\.75/)],
      ['1 Jul 2025', 'Until further notice', expect.stringMatching(/0\.80/)],
    ]);
    const fixed = await screen.findByRole('table', { name: 'Fixed charges' });
    expect(rowsOf(fixed)).toEqual([
      ['Subscription (Heat energy)', expect.stringMatching(/1,200\.00/), expect.stringMatching(/100\.00/)],
      ['water-fee', expect.stringMatching(/600\.00/), expect.stringMatching(/50\.00/)],
      ['Total', expect.stringMatching(/1,800\.00/), expect.stringMatching(/150\.00/)],
    ]);
    expect((await screen.findByTestId('projection-month')).textContent).toMatch(
      /^At this pace, this month ends near .*744.* \(930 kWh\)\. So far: .*240.* after 10 of 31 days\.$/,
    );
    expect(screen.queryByTestId('projection-year')).toBeNull();
    expect(screen.getByText('A projection needs at least three days of data.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the cost graph fails, and still shows the prices', async () => {
    graphFails = true;
    render(<PricePage lang="en" quantity="heat-energy" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The consumption could not be loaded.');
    expect(await screen.findByRole('table', { name: 'Prices' })).toBeTruthy();
  });
});
