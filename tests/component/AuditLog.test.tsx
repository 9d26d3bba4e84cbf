/**
 * The console's audit log island (src/islands/admin/AuditLog.tsx) as the operator sees it: the entries the server
 * answers, in words; the filters it sends; paging by the server's cursor. The admin backend is replaced by answers
 * per GraphQL document; everything else (i18n, TanStack Query, the markup) is the island's own.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AdminPropertiesDocument,
  AuditFacetsDocument,
  AuditLogDocument,
  type AuditLogQueryVariables,
} from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: AuditLog } = await import('../../src/islands/admin/AuditLog.tsx');

const entry = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  at: '2026-03-04T09:30:00Z',
  actor: 'manager@demo.test',
  action: 'tenancy.move_out',
  subjectType: 'tenancy',
  subjectId: `T-${id}`,
  propertyId: '7',
  reason: null,
  before: { end: null },
  after: { end: '2026-03-31' },
  ...over,
});

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  answers.set(AdminPropertiesDocument, () => ({
    properties: [
      { id: '7', number: 'P-107', name: 'Lindely', address: 'Lindevej 1', zipcode: '8000', city: 'Aarhus' },
    ],
  }));
  answers.set(AuditFacetsDocument, () => ({
    auditFacets: { actors: ['manager@demo.test'], actions: ['tenancy.move_out', 'invitation.create'] },
  }));
});

describe('the audit log island', () => {
  it("shows the server's entries in words: who, what, on which property, before and after", async () => {
    answers.set(AuditLogDocument, () => ({
      auditLog: { entries: [entry('1', { reason: 'Moved abroad' })], nextCursor: null },
    }));
    render(<AuditLog lang="en" />);
    const row = await screen.findByTestId('audit-entry');
    expect(within(row).getByText('manager@demo.test')).toBeTruthy();
    expect(within(row).getByRole('rowheader').textContent).toContain('tenancy T-1');
    expect(within(row).getByText('Moved abroad')).toBeTruthy();
    // The property by its number from the properties query, not its id.
    expect(within(row).getByText('P-107')).toBeTruthy();
    expect(within(row).getByText('{"end":"2026-03-31"}')).toBeTruthy();
    // One page only: no pager.
    expect(screen.queryByRole('navigation', { name: /page/i })).toBeNull();
  });

  it('an action the locale names is shown by its label; an unknown one by its code', async () => {
    answers.set(AuditLogDocument, () => ({
      auditLog: {
        entries: [entry('1', { action: 'invitation.create' }), entry('2', { action: 'something.new' })],
        nextCursor: null,
      },
    }));
    render(<AuditLog lang="en" />);
    const rows = await screen.findAllByTestId('audit-entry');
    expect(within(rows[0]!).getByRole('rowheader').textContent).toContain('Invitation created');
    expect(within(rows[1]!).getByRole('rowheader').textContent).toContain('something.new');
  });

  it('sends the filters on Apply, with the inclusive "to" date as the next day, and says when nothing matches', async () => {
    answers.set(AuditLogDocument, (v: AuditLogQueryVariables) => ({
      auditLog: { entries: v.filter?.search ? [] : [entry('1')], nextCursor: null },
    }));
    render(<AuditLog lang="en" />);
    await screen.findByTestId('audit-entry');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: '  nobody  ' } });
    fireEvent.change(screen.getByLabelText('To (inclusive)'), { target: { value: '2026-03-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('No entries match these filters.')).toBeTruthy();
    expect(screen.queryByTestId('audit-entry')).toBeNull();
    const last = lastVariables<AuditLogQueryVariables>(AuditLogDocument);
    expect(last.filter).toMatchObject({ search: 'nobody', to: '2026-04-01', from: null, actor: null });
    expect(last.after).toBeNull();
  });

  it("pages by the server's cursor: Older asks for the next page, Newer goes back", async () => {
    answers.set(AuditLogDocument, (v: AuditLogQueryVariables) =>
      v.after === 'c2'
        ? { auditLog: { entries: [entry('51', { actor: 'older@demo.test' })], nextCursor: null } }
        : { auditLog: { entries: [entry('1')], nextCursor: 'c2' } },
    );
    render(<AuditLog lang="en" />);
    await screen.findByText('Page 1');
    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('older@demo.test')).toBeTruthy();
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('audit-entry')).getByText('manager@demo.test')).toBeTruthy(),
    );
    expect(screen.getByText('Page 1')).toBeTruthy();
  });
});
