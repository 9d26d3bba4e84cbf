/**
 * The console's API keys island (src/islands/admin/ApiKeys.tsx): what each key sent in the last 7 days, in the
 * operator's language; the new key with its copy button; a revocation only after a confirmation.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AdminPropertiesDocument,
  ApiKeysDocument,
  CreateApiKeyDocument,
  RevokeApiKeyDocument,
} from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, calls, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: ApiKeys } = await import('../../src/islands/admin/ApiKeys.tsx');

const day = (over: Record<string, unknown>) => ({
  day: '2026-03-04',
  batches: 1,
  rows: 0,
  accepted: 0,
  duplicate: 0,
  refused: 0,
  quarantined: 0,
  lastRefusal: null,
  lastRefusalAt: null,
  ...over,
});
const key = (id: string, name: string, activity: unknown[]) => ({
  id,
  name,
  prefix: `tk_${id}`,
  propertyIds: ['7'],
  createdAt: '2026-03-01T08:00:00Z',
  createdBy: 'admin@demo.test',
  lastUsedAt: activity.length ? '2026-03-04T09:00:00Z' : null,
  revokedAt: null,
  activity,
});

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  answers.set(AdminPropertiesDocument, () => ({
    properties: [
      { id: '7', number: '1001', name: 'Solgården', address: 'Solvej 1', zipcode: '8000', city: 'Aarhus C' },
    ],
  }));
  answers.set(ApiKeysDocument, () => ({
    apiKeys: [
      key('2', 'Gateway 7', [
        day({
          day: '2026-03-04',
          batches: 40,
          rows: 39_998,
          accepted: 39_950,
          refused: 40,
          quarantined: 8,
          lastRefusal: 'line 12: unknown meter number "X-9"',
          lastRefusalAt: '2026-03-04T08:15:00Z',
        }),
        day({
          day: '2026-03-03',
          batches: 1,
          rows: 2,
          accepted: 1,
          refused: 1,
          lastRefusal: 'line 2: older',
          lastRefusalAt: '2026-03-03T08:15:00Z',
        }),
      ]),
      key('1', 'Idle', []),
    ],
  }));
});

describe('the API keys island', () => {
  it('sums what each key sent in the last 7 days and shows the newest refusal', async () => {
    render(<ApiKeys lang="en" />);
    const gateway = await screen.findByTestId('key-Gateway 7');
    expect(gateway.textContent).toContain('40,000 rows · 41 batches');
    // Outcomes that happened; none already stored, so that one is left out.
    expect(gateway.textContent).toContain('39,951 taken · 41 refused · 8 held back as suspect');
    expect(gateway.textContent).not.toContain('already stored');
    expect(within(gateway).getByTestId('last-refusal').textContent).toBe(
      'Last refused 4 Mar 2026, 09:15: line 12: unknown meter number "X-9"',
    );
    expect(screen.getByTestId('key-Idle').textContent).toContain('Nothing sent');
  });

  it('revokes a key only after its confirmation; cancelling sends nothing', async () => {
    answers.set(RevokeApiKeyDocument, () => ({ revokeApiKey: key('2', 'Gateway 7', []) }));
    render(<ApiKeys lang="en" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Gateway 7' }));
    const confirm = screen.getByRole('group', { name: 'Revoke Gateway 7' });
    expect(confirm.textContent).toContain('Revoke Gateway 7? Every system that sends with it is refused');
    // The question takes the focus on Cancel, and gives it back to the row's button.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.document === RevokeApiKeyDocument)).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Revoke Gateway 7' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Gateway 7' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(lastVariables(RevokeApiKeyDocument)).toEqual({ id: '2' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Gateway 7 is revoked: requests with it are refused.',
    );
  });

  it('shows the new key once, with a button that copies it', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    answers.set(CreateApiKeyDocument, () => ({
      createApiKey: { key: 'tk_0000abcd_secret', apiKey: key('3', 'New', []) },
    }));
    render(<ApiKeys lang="en" />);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'New' } });
    fireEvent.click(await screen.findByRole('checkbox', { name: '1001 · Solgården' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const shown = await screen.findByTestId('new-key');
    expect(shown.textContent).toContain('tk_0000abcd_secret');
    // The copy button takes the focus: copying is the one thing to do next.
    await waitFor(() =>
      expect(document.activeElement).toBe(within(shown).getByRole('button', { name: 'Copy' })),
    );
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('tk_0000abcd_secret');
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('says when there is no key yet, instead of an empty table', async () => {
    answers.set(ApiKeysDocument, () => ({ apiKeys: [] }));
    render(<ApiKeys lang="en" />);
    expect((await screen.findByTestId('keys-empty')).textContent).toContain('No keys yet.');
    expect(screen.queryByTestId('keys-table')).toBeNull();
  });
});
