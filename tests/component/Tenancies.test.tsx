/**
 * The console's tenancies island (src/islands/admin/Tenancies.tsx) as the operator sees it: a property's flats
 * with their tenancies, users and interim readings in words, and the move-out flow: what it sends, and the table
 * read again afterwards.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AdminPropertiesDocument,
  MoveOutDocument,
  type MoveOutMutationVariables,
  TenancyApartmentsDocument,
  type TenancyApartmentsQueryVariables,
} from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, calls, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: Tenancies } = await import('../../src/islands/admin/Tenancies.tsx');

const tenancy = (over: Record<string, unknown> = {}) => ({
  id: '11',
  reference: 'T-1001',
  tenant: 'Ane Hansen',
  apartmentId: '5',
  start: '2024-01-01',
  end: null,
  accessEndsAt: null,
  members: [{ userId: '3', email: 'ane@demo.test' }],
  interimReadings: [
    {
      meterNumber: 'M-1',
      quantity: 'heat-energy',
      value: 1234.5,
      readingTs: '2024-01-01T00:00:00Z',
      source: 'METER',
    },
  ],
  ...over,
});

let lastDay: string | null = null;

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  lastDay = null;
  answers.set(AdminPropertiesDocument, () => ({
    properties: [
      { id: '7', number: 'P-107', name: 'Lindely', address: 'Lindevej 1', zipcode: '8000', city: 'Aarhus' },
      { id: '8', number: 'P-108', name: 'Egely', address: 'Egevej 2', zipcode: '8000', city: 'Aarhus' },
    ],
  }));
  answers.set(TenancyApartmentsDocument, (v: TenancyApartmentsQueryVariables) => ({
    tenancyApartments:
      v.propertyId === '7'
        ? [
            {
              id: '5',
              uniqueId: 'U-5',
              apartment: '1 tv',
              address: 'Lindevej 1, 1 tv',
              tenancies: [tenancy({ end: lastDay })],
            },
            { id: '6', uniqueId: 'U-6', apartment: '1 th', address: 'Lindevej 1, 1 th', tenancies: [] },
          ]
        : [],
  }));
  answers.set(MoveOutDocument, (v: MoveOutMutationVariables) => {
    lastDay = v.input.lastDay;
    return { moveOut: tenancy({ end: lastDay }) };
  });
});

describe('the tenancies island', () => {
  it("shows the first property's flats: tenancy, tenant, period, users, interim readings; a vacant flat says so", async () => {
    render(<Tenancies lang="en" />);
    const table = await screen.findByTestId('tenancies-table');
    expect(lastVariables<TenancyApartmentsQueryVariables>(TenancyApartmentsDocument)).toEqual({
      propertyId: '7',
    });
    const row = within(table).getByText('T-1001').closest('tr')!;
    expect(row.textContent).toContain('Lindevej 1, 1 tv');
    expect(row.textContent).toContain('Ane Hansen');
    expect(row.textContent).toContain('2024-01-01 – ongoing');
    expect(row.textContent).toContain('ane@demo.test');
    expect(row.textContent).toContain('M-1: 1234.5 (from the meter)');
    expect(within(table).getByText('Vacant')).toBeTruthy();
  });

  it('moves a tenant out: the last day and a reading go to the server, and the table shows the new end', async () => {
    render(<Tenancies lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Move out' }));
    const lastDayField = await screen.findByLabelText('Last day');
    expect(document.getElementById('move-title')?.textContent).toBe('Move out of T-1001');
    fireEvent.change(lastDayField, { target: { value: '2026-03-31' } });
    fireEvent.change(screen.getByLabelText('Reading of meter M-1 (optional)'), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save move-out' }));
    expect(await screen.findByText('Moved out. The last day is 2026-03-31.')).toBeTruthy();
    const sent = lastVariables<MoveOutMutationVariables>(MoveOutDocument).input;
    expect(sent).toMatchObject({ tenancyId: '11', lastDay: '2026-03-31' });
    expect(sent.readings).toEqual([expect.objectContaining({ meterNumber: 'M-1', value: '2000' })]);
    // The table is read again and shows the end; the button now changes the move-out.
    await waitFor(() => expect(screen.getByText(/2024-01-01 – 2026-03-31/)).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Change move-out' })).toBeTruthy();
  });

  it('cancelling the move-out sends nothing and says nothing was changed', async () => {
    render(<Tenancies lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Move out' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Nothing was changed.')).toBeTruthy();
    expect(calls.some((c) => c.document === MoveOutDocument)).toBe(false);
  });
});
