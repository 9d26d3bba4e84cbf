/**
 * The console's API keys island in Danish (the island's language is the page's, set before it loads): a key's last
 * 7 days in da-DK numbers, plurals and dates.
 */
import { render, screen, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { AdminPropertiesDocument, ApiKeysDocument } from '../../src/client/gql/admin.ts';
import { answers } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

document.documentElement.lang = 'da';
const { default: ApiKeys } = await import('../../src/islands/admin/ApiKeys.tsx');

it('says what a key sent in Danish, with Danish numbers and plurals', async () => {
  answers.set(AdminPropertiesDocument, () => ({ properties: [] }));
  answers.set(ApiKeysDocument, () => ({
    apiKeys: [
      {
        id: '2',
        name: 'Gateway 7',
        prefix: 'tk_2',
        propertyIds: ['7'],
        createdAt: '2026-03-01T08:00:00Z',
        createdBy: 'admin@demo.test',
        lastUsedAt: '2026-03-04T09:00:00Z',
        revokedAt: null,
        activity: [
          {
            day: '2026-03-04',
            batches: 1,
            rows: 40_000,
            accepted: 39_951,
            duplicate: 1,
            refused: 48,
            quarantined: 0,
            lastRefusal: 'line 12: unknown meter number "X-9"',
            lastRefusalAt: '2026-03-04T08:15:00Z',
          },
        ],
      },
    ],
  }));
  render(<ApiKeys lang="da" />);
  const gateway = await screen.findByTestId('key-Gateway 7');
  expect(gateway.textContent).toContain('40.000 rækker · 1 sending');
  expect(gateway.textContent).toContain('39.951 modtaget · 1 allerede gemt · 48 afvist');
  expect(gateway.textContent).not.toContain('holdt tilbage');
  expect(within(gateway).getByTestId('last-refusal').textContent).toMatch(/^Senest afvist 4\. mar\. 2026/);
});
