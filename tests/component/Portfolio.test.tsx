/**
 * The console's portfolio island (src/islands/admin/Portfolio.tsx) as the operator sees it: one row per property
 * in words and numbers, the count, sorting and paging asked of the server, and the choices kept in the address.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PortfolioDocument, type PortfolioQueryVariables } from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: Portfolio } = await import('../../src/islands/admin/Portfolio.tsx');

const row = (n: number, over: Record<string, unknown> = {}) => ({
  property: {
    id: String(n),
    number: `P-${n}`,
    name: `House ${n}`,
    address: `Street ${n}`,
    zipcode: '8000',
    city: 'Aarhus',
  },
  apartments: 6,
  meters: 12,
  metersReporting: 9,
  reportingShare: 0.75,
  lastReadingAt: '2026-03-04T09:00:00Z',
  openIssues: 2,
  tenancies: 6,
  invited: 4,
  activated: 3,
  ...over,
});

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  window.history.replaceState(null, '', '/admin');
});

describe('the portfolio island', () => {
  it('shows each property with its reporting share, issues, invited and activated tenants, and the count', async () => {
    answers.set(PortfolioDocument, () => ({
      portfolio: {
        total: 2,
        asOf: '2026-03-04T10:00:00Z',
        rows: [row(1), row(2, { lastReadingAt: null, reportingShare: null, metersReporting: 0 })],
      },
    }));
    render(<Portfolio lang="en" />);
    expect((await screen.findByTestId('portfolio-count')).textContent).toBe('2 properties');
    const [, first, second] = screen.getAllByRole('row');
    expect(first!.textContent).toContain('P-1 · House 1');
    expect(first!.textContent).toContain('Street 1, 8000 Aarhus');
    expect(first!.textContent).toContain('75%');
    expect(first!.textContent).toContain('9 of 12 meters');
    expect(first!.textContent).toContain('6 tenancies');
    // A property whose meters never reported says so, with no share.
    expect(within(second!).getByText('Never')).toBeTruthy();
    expect(second!.textContent).toContain('–');
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });

  it('never rounds a share with a meter missing up to 100 %, and links open issues to the queue of the property', async () => {
    answers.set(PortfolioDocument, () => ({
      portfolio: {
        total: 2,
        asOf: '2026-03-04T10:00:00Z',
        rows: [
          row(1, { meters: 265, metersReporting: 264, reportingShare: 264 / 265 }),
          row(2, { openIssues: 0 }),
        ],
      },
    }));
    render(<Portfolio lang="en" />);
    await screen.findByTestId('portfolio-count');
    const [, first, second] = screen.getAllByRole('row');
    expect(first!.textContent).toContain('99.6%');
    expect(first!.textContent).not.toContain('100%');
    const link = within(first!).getByRole('link', { name: '2 open data issues of House 1' });
    expect(link.getAttribute('href')).toBe('/admin/data-quality?property=1');
    expect(within(second!).queryByRole('link')).toBeNull();
  });

  it('says so when no property matches', async () => {
    answers.set(PortfolioDocument, () => ({
      portfolio: { total: 0, asOf: '2026-03-04T10:00:00Z', rows: [] },
    }));
    render(<Portfolio lang="en" />);
    expect(await screen.findByText('No property matches the filter.')).toBeTruthy();
  });

  it('sorts and pages on the server, and keeps the choices in the address', async () => {
    answers.set(PortfolioDocument, (v: PortfolioQueryVariables) => ({
      portfolio: { total: 120, asOf: '2026-03-04T10:00:00Z', rows: [row((v.offset ?? 0) + 1)] },
    }));
    render(<Portfolio lang="en" />);
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect(lastVariables<PortfolioQueryVariables>(PortfolioDocument)).toMatchObject({
      sort: { key: 'NUMBER', direction: 'ASC' },
      first: 50,
      offset: 0,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    expect(await screen.findByText(/P-51/)).toBeTruthy();
    expect(lastVariables<PortfolioQueryVariables>(PortfolioDocument).offset).toBe(50);
    // Open data issues sort most first; sorting goes back to the first page.
    fireEvent.click(screen.getByRole('button', { name: /Open data issues/ }));
    await waitFor(() =>
      expect(lastVariables<PortfolioQueryVariables>(PortfolioDocument)).toMatchObject({
        sort: { key: 'OPEN_ISSUES', direction: 'DESC' },
        offset: 0,
      }),
    );
    expect(screen.getByRole('columnheader', { name: /Open data issues/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    await waitFor(() => expect(window.location.search).toContain('sort=OPEN_ISSUES'));
  });

  it('starts from the view in the address', async () => {
    window.history.replaceState(null, '', '/admin?issues=1&page=2&sort=CITY&dir=desc');
    answers.set(PortfolioDocument, () => ({
      portfolio: { total: 60, asOf: '2026-03-04T10:00:00Z', rows: [row(51)] },
    }));
    render(<Portfolio lang="en" />);
    expect(await screen.findByText('Page 2 of 2')).toBeTruthy();
    expect(lastVariables<PortfolioQueryVariables>(PortfolioDocument)).toMatchObject({
      filter: { withOpenIssues: true },
      sort: { key: 'CITY', direction: 'DESC' },
      offset: 50,
    });
    expect(screen.getByLabelText('Only with open data issues')).toHaveProperty('checked', true);
  });
});
