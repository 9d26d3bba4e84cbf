/**
 * The tenant dashboard island (src/islands/consumption/Dashboard.tsx): what it asks tenancyDashboard for, the
 * quantity card (total, link, rating), the rating and CO₂ cards, a failure with its retry, and a tenancy without
 * consumption quantities, which asks for no dashboard.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TenancyDashboardDocument, TenantUnitsDocument } from '../../src/client/gql/tenant.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, callsOf, resetBackend, session } from './tenantBackend.ts';

vi.mock('../../src/islands/shared/useSession.ts', () => import('./tenantBackend.ts'));

const { default: Dashboard } = await import('../../src/islands/consumption/Dashboard.tsx');

const unit = {
  unit: { id: '5', unitUniqueId: 'U-5', name: 'Lindevej 1, 1 tv', tenantName: 'Ane Hansen' },
  path: [
    {
      property: {
        id: '7',
        number: 'P-107',
        settings: [{ kind: 'HOURLY_VALUES' }],
        co2Factors: [{ quantity: 'heat-energy', gramPerQuantityUnit: 80 }],
      },
    },
  ],
};

const dashboard = (over: Record<string, unknown> = {}) => ({
  units: [unit],
  unitId: '5',
  tenantGraph: {
    timestamps: ['2025-03-01T00:00', '2025-03-02T00:00', '2025-03-03T00:00'],
    partial: [false, false, true],
    graphs: [
      {
        consumption: [
          {
            quantityDescriptor: { quantity: 'heat-energy' },
            values: [400, 500, 213.2],
            relatedValues: [{ type: 'LAST_PERIOD', values: [450, 450, 450] }],
          },
        ],
      },
    ],
  },
  kpis: [
    {
      quantityDescriptor: { quantity: 'heat-energy' },
      total: 1113.2,
      partial: true,
      previousPeriod: 1350,
      propertyComparison: 1200,
    },
  ],
  co2: [{ quantityDescriptor: { quantity: 'heat-energy' }, total: 89_056 }],
  // 80 % of the property's per m²: band B (70–85 %).
  rating: [{ quantityDescriptor: { quantity: 'heat-energy' }, total: 80, propertyComparison: 100 }],
  ...over,
});

let failNext = false;

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  failNext = false;
  session.tenancy = {
    id: '11',
    apartment: { uniqueId: 'U-5' },
    meterUnits: [{ kind: 'energy' }],
    dataAvailability: { start: '2024-01-01' },
  };
  answers.set(TenancyDashboardDocument, () => {
    if (failNext) {
      failNext = false;
      throw new Error('Internal server error');
    }
    return { tenancyDashboard: dashboard() };
  });
  answers.set(TenantUnitsDocument, () => ({ tenantUnits: [unit] }));
});

describe('the dashboard island', () => {
  it("asks tenancyDashboard once for the tenancy's quantities and draws the heat card with its total and rating", async () => {
    render(<Dashboard lang="en" />);
    const card = await screen.findByTestId('card-heat-energy');
    await waitFor(() => expect(within(card).getByTestId('heat-total')).toBeTruthy());
    expect(within(card).getByTestId('heat-total').textContent).toMatch(/Total so far.*1,113/);
    expect(within(card).getByRole('link', { name: 'Heat energy' }).getAttribute('href')).toBe(
      '/t/11/consumption/heat-energy',
    );
    expect(within(card).getByRole('link', { name: 'Open heat energy' })).toBeTruthy();
    expect(within(card).getByText('B').getAttribute('title')).toMatch(/^B: 70-85%/);

    const requests = callsOf(TenancyDashboardDocument);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/api/tenant/graphql');
    const input = requests[0]!.variables.input as Record<string, unknown>;
    expect(input).toMatchObject({ tenancyId: '11', quantities: ['heat-energy'] });
    expect(input.related).toHaveLength(1);
    // No separate units request: the dashboard's answer brings them.
    expect(callsOf(TenantUnitsDocument)).toHaveLength(0);
  });

  it('shows the rating list and the CO₂ footprint of the period', async () => {
    render(<Dashboard lang="en" />);
    const list = await screen.findByTestId('rating-list');
    expect(list.textContent).toContain('Heat energy: B: 70-85%');
    const co2 = await screen.findByTestId('co2-total');
    expect(co2.textContent).toBe('Your consumption in this period caused 89.1 kg CO₂.');
  });

  it('says a rating needs a year when the property has no basis, and no data without a total', async () => {
    answers.set(TenancyDashboardDocument, () => ({
      tenancyDashboard: dashboard({
        rating: [{ quantityDescriptor: { quantity: 'heat-energy' }, total: null, propertyComparison: null }],
        kpis: [
          {
            quantityDescriptor: { quantity: 'heat-energy' },
            total: null,
            partial: false,
            previousPeriod: null,
            propertyComparison: null,
          },
        ],
      }),
    }));
    render(<Dashboard lang="en" />);
    expect(await screen.findByText('A rating needs a year of data for you and the property.')).toBeTruthy();
    const card = screen.getByTestId('card-heat-energy');
    expect(within(card).queryByTestId('heat-total')).toBeNull();
  });

  it('shows a failure with a retry that asks again and then draws the answer', async () => {
    failNext = true;
    render(<Dashboard lang="en" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The consumption could not be loaded.');
    expect(callsOf(TenancyDashboardDocument)).toHaveLength(1);
    // The menu still gets its units, alone.
    await waitFor(() => expect(callsOf(TenantUnitsDocument)).toHaveLength(1));
    fireEvent.click(within(alert).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('heat-total')).toBeTruthy());
    expect(callsOf(TenancyDashboardDocument)).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for no dashboard for a tenancy without consumption quantities, only the units for the menu', async () => {
    session.tenancy = { ...session.tenancy, meterUnits: [{ kind: 'temperature' }] };
    render(<Dashboard lang="en" />);
    expect(await screen.findByRole('link', { name: 'Open indoor climate' })).toBeTruthy();
    await waitFor(() => expect(callsOf(TenantUnitsDocument)).toHaveLength(1));
    expect(callsOf(TenancyDashboardDocument)).toHaveLength(0);
    expect(screen.queryByTestId('card-heat-energy')).toBeNull();
  });
});
