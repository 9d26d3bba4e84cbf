/**
 * The data-quality island's explanations in Danish (DataQuality.test.tsx has English): the page's language is
 * read once, when src/client/i18n.ts loads, so this file sets it before it loads the island.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { DataQualityQueueDocument } from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

document.documentElement.lang = 'da';
const { default: DataQuality } = await import('../../src/islands/admin/DataQuality.tsx');

it('says why in Danish, numbers and times as da-DK writes them', async () => {
  answers.set(DataQualityQueueDocument, () => ({
    dataQualityQueue: {
      issues: [
        {
          id: '2',
          kind: 'JUMP',
          status: 'OPEN',
          propertyId: '7',
          meterNumber: 'EL-1',
          readingTs: '2026-11-27T20:30:00.000Z',
          readingValue: '12824.852',
          reason: "the server's reason",
          evidence: {
            quantity: 'electricity-energy',
            bound: 1000,
            interval: {
              from: { ts: '2026-11-27T20:00:00.000Z', value: '7824.852' },
              to: { ts: '2026-11-27T20:30:00.000Z', value: '12824.852' },
            },
            before: { ts: '2026-11-27T20:00:00.000Z', value: '7824.852' },
            after: { ts: '2026-11-27T21:00:00.000Z', value: '7825.058' },
          },
          resolution: null,
          resolvedBy: null,
        },
      ],
      unknownRadioIds: [],
      untakenTelegrams: [],
    },
  }));
  render(<DataQuality lang="da" />);
  const row = await screen.findByTestId('issue-EL-1');
  expect(within(row).getAllByRole('cell')[3]!.textContent).toBe(
    'Stiger fra 7.824,852 kWh (27. nov. 2026, 21.00) til 12.824,852 kWh (27. nov. 2026, 21.30): mere end de ' +
      'plausible 1.000 kWh på den tid. ' +
      'Næste aflæsning: 7.825,058 kWh (27. nov. 2026, 22.00).',
  );
  expect(within(row).getByText('12.824,852')).toBeTruthy();
});

it("says the MQTT feed's state and backlog in Danish", async () => {
  cleanup();
  queryClient.clear();
  answers.set(DataQualityQueueDocument, () => ({
    dataQualityQueue: {
      issues: [],
      unknownRadioIds: [],
      untakenTelegrams: [],
      mqttFeed: {
        subscribers: [
          {
            clientId: 'tenant-app-ingest',
            url: 'mqtt://broker.example:1883',
            topic: 'wmbusmeters/#',
            connected: false,
            since: '2026-11-28T09:00:00.000Z',
            lastError: 'connect ECONNREFUSED 10.0.0.5:1883',
            lastTelegramAt: '2026-11-28T08:59:00.000Z',
            reportedAt: '2026-11-28T10:05:00.000Z',
            running: true,
          },
        ],
        waiting: 1,
        oldestWaitingAt: '2026-11-28T08:58:00.000Z',
      },
    },
  }));
  render(<DataQuality lang="da" />);
  const feed = await screen.findByTestId('mqtt-feed');
  expect(within(feed).getByRole('heading').textContent).toBe('Radiofeed (MQTT)');
  expect(feed.textContent).toContain(
    'Ikke forbundet til mqtt://broker.example:1883 siden 28. nov. 2026, 10.00.',
  );
  expect(feed.textContent).toContain('Brokerens seneste fejl: connect ECONNREFUSED 10.0.0.5:1883');
  expect(feed.textContent).toContain('1 telegram venter på at blive indlæst, gemt 28. nov. 2026, 09.58.');
});
