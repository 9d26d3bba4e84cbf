/**
 * The console's data-quality island (src/islands/admin/DataQuality.tsx): why each issue was raised, in the
 * operator's language, from the issue's evidence (the readings around a suspect one, the plausible rise, a silent
 * or stuck meter's last reading); the server's English reason when the evidence lacks what a sentence needs.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AdminPropertiesDocument,
  DataQualityQueueDocument,
  type DataQualityQueueQueryVariables,
  GiveRadioIdDocument,
} from '../../src/client/gql/admin.ts';
import { queryClient } from '../../src/client/queryClient.ts';
import { answers, lastVariables, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

const { default: DataQuality } = await import('../../src/islands/admin/DataQuality.tsx');

const issue = (id: string, over: Record<string, unknown>) => ({
  id,
  status: 'OPEN',
  propertyId: '7',
  meterNumber: `M-${id}`,
  apartment: `Solvej ${id}, 1. th`,
  readingTs: '2026-11-26T21:30:00.000Z',
  readingValue: '5253.528',
  reason: `the server's reason ${id}`,
  evidence: {},
  resolution: null,
  resolvedBy: null,
  resolvedAt: null,
  ...over,
});

const ISSUES = [
  issue('1', {
    kind: 'DIGIT_SHIFT',
    evidence: {
      quantity: 'heat-energy',
      bound: 1000,
      interval: {
        from: { ts: '2026-11-26T21:00:00.000Z', value: '52535.281' },
        to: { ts: '2026-11-26T21:30:00.000Z', value: '5253.528' },
      },
      before: { ts: '2026-11-26T21:00:00.000Z', value: '52535.281' },
      after: { ts: '2026-11-26T22:00:00.000Z', value: '52537.506' },
    },
  }),
  issue('2', {
    kind: 'JUMP',
    readingTs: '2026-11-27T20:30:00.000Z',
    readingValue: '12824.852',
    evidence: {
      quantity: 'electricity-energy',
      bound: 1000,
      interval: {
        from: { ts: '2026-11-27T20:00:00.000Z', value: '7824.852' },
        to: { ts: '2026-11-27T20:30:00.000Z', value: '12824.852' },
      },
      before: { ts: '2026-11-27T20:00:00.000Z', value: '7824.852' },
    },
  }),
  // A register read near zero, which passes as a reset; the next reading then rises too far: the refused interval
  // runs from the suspect reading to the next one.
  issue('9', {
    kind: 'JUMP',
    readingValue: '0.001',
    evidence: {
      quantity: 'cold-water-volume',
      bound: 40,
      interval: {
        from: { ts: '2026-11-26T21:30:00.000Z', value: '0.001' },
        to: { ts: '2026-11-26T22:00:00.000Z', value: '304.6' },
      },
      before: { ts: '2026-11-26T21:00:00.000Z', value: '304.56' },
      after: { ts: '2026-11-26T22:00:00.000Z', value: '304.6' },
    },
  }),
  issue('3', {
    kind: 'SILENT',
    readingValue: null,
    evidence: {
      quantity: 'hot-water-volume',
      silentHours: 48,
      last: { ts: '2026-11-25T10:00:00.000Z', value: '17.5' },
    },
  }),
  issue('4', {
    kind: 'STUCK',
    readingValue: null,
    evidence: {
      quantity: 'cold-water-volume',
      stuckDays: 14,
      since: { ts: '2026-11-01T10:00:00.000Z', value: '304.56' },
    },
  }),
  // An issue raised before the evidence named its interval: the server's reason.
  issue('5', {
    kind: 'DROP',
    evidence: { reason: 'x', before: { ts: '2026-11-26T21:00:00.000Z', value: '1' } },
  }),
];

beforeEach(() => {
  queryClient.clear();
  resetBackend();
  answers.set(DataQualityQueueDocument, () => ({
    dataQualityQueue: { issues: ISSUES, unknownRadioIds: [], untakenTelegrams: [] },
  }));
  answers.set(AdminPropertiesDocument, () => ({
    properties: [
      {
        id: '7',
        number: '1001',
        name: 'Solgården',
        address: 'Solvej 1-5',
        zipcode: '8000',
        city: 'Aarhus C',
      },
      { id: '8', number: '1002', name: 'Lindely', address: 'Lindevej 1', zipcode: '8000', city: 'Aarhus C' },
    ],
  }));
});

const why = async (meter: string) => {
  const row = await screen.findByTestId(`issue-${meter}`);
  return within(row).getAllByRole('cell')[3]!.textContent;
};

describe('the data-quality island', () => {
  it('says why in English, with the readings around, their units and times in Copenhagen', async () => {
    render(<DataQuality lang="en" />);
    expect(await why('M-1')).toBe(
      'From 52,535.281 kWh (26 Nov 2026, 22:00) to 5,253.528 kWh (26 Nov 2026, 22:30): about 10, 100 or 1,000 ' +
        'times off, as when a digit or the decimal point is misread. Next reading: 52,537.506 kWh (26 Nov 2026, 23:00).',
    );
    expect(await why('M-2')).toBe(
      'Rises from 7,824.852 kWh (27 Nov 2026, 21:00) to 12,824.852 kWh (27 Nov 2026, 21:30): more than the ' +
        'plausible 1,000 kWh in that time.',
    );
    expect(await why('M-9')).toBe(
      'Rises from 0.001 m³ (26 Nov 2026, 22:30) to 304.6 m³ (26 Nov 2026, 23:00): more than the plausible 40 m³ ' +
        'in that time. Reading before: 304.56 m³ (26 Nov 2026, 22:00).',
    );
    expect(await why('M-3')).toBe(
      'No reading for 48 hours or more. Last reading: 17.5 m³ (25 Nov 2026, 11:00).',
    );
    expect(await why('M-4')).toBe('Unchanged at 304.56 m³ since 1 Nov 2026, 11:00: 14 days or more.');
    expect(await why('M-5')).toBe("the server's reason 5");
    // The reading itself as numbers are written in the language.
    expect(within(await screen.findByTestId('issue-M-2')).getByText('12,824.852')).toBeTruthy();
  });

  it("names each meter's property and flat, and filters by property and status, the property in the address too", async () => {
    render(<DataQuality lang="en" />);
    const row = await screen.findByTestId('issue-M-1');
    await waitFor(() =>
      expect(within(row).getByRole('rowheader').textContent).toBe('M-11001 · Solgården · Solvej 1, 1. th'),
    );
    expect(lastVariables<DataQualityQueueQueryVariables>(DataQualityQueueDocument)).toEqual({
      filter: { status: 'OPEN' },
      first: 200,
    });
    // Fewer than a page's worth: no note that older ones are left out.
    expect(screen.queryByText(/The newest 200 are shown/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Property'), { target: { value: '8' } });
    await waitFor(() =>
      expect(lastVariables<DataQualityQueueQueryVariables>(DataQualityQueueDocument)).toEqual({
        filter: { status: 'OPEN', propertyId: '8' },
        first: 200,
      }),
    );
    expect(window.location.search).toBe('?property=8');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'ALL' } });
    await waitFor(() =>
      expect(lastVariables<DataQualityQueueQueryVariables>(DataQualityQueueDocument)).toEqual({
        filter: { status: 'ALL', propertyId: '8' },
        first: 200,
      }),
    );
    fireEvent.change(screen.getByLabelText('Property'), { target: { value: '' } });
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('shows a decided issue with its decision, who made it and when, and no buttons', async () => {
    answers.set(DataQualityQueueDocument, () => ({
      dataQualityQueue: {
        issues: [
          issue('6', {
            kind: 'JUMP',
            status: 'ACCEPTED',
            resolution: 'CORRECT',
            resolvedBy: 'operator@demo.test',
            resolvedAt: '2026-11-28T02:40:00.000Z',
          }),
          issue('7', {
            kind: 'DROP',
            status: 'REJECTED',
            resolvedBy: 'manager@demo.test',
            resolvedAt: '2026-11-28T02:41:00.000Z',
          }),
          issue('8', { kind: 'SILENT', status: 'ACCEPTED', resolution: 'NOTED', readingValue: null }),
        ],
        unknownRadioIds: [],
        untakenTelegrams: [],
      },
    }));
    render(<DataQuality lang="en" />);
    const decision = async (meter: string) => {
      const row = await screen.findByTestId(`issue-${meter}`);
      expect(within(row).queryByRole('button')).toBeNull();
      return within(row).getAllByRole('cell')[4]!.textContent;
    };
    expect(await decision('M-6')).toBe(
      'Accepted as a correct reading.operator@demo.test, 28 Nov 2026, 03:40',
    );
    expect(await decision('M-7')).toBe(
      'Rejected: the reading was discarded.manager@demo.test, 28 Nov 2026, 03:41',
    );
    expect(await decision('M-8')).toBe('Noted.');
  });

  it('says when only the newest page of issues is shown', async () => {
    const many = Array.from({ length: 200 }, (_, n) => issue(String(100 + n), { kind: 'DROP' }));
    answers.set(DataQualityQueueDocument, () => ({
      dataQualityQueue: { issues: many, unknownRadioIds: [], untakenTelegrams: [] },
    }));
    render(<DataQuality lang="en" />);
    expect(
      (await screen.findByText('The newest 200 are shown. Choose a property to see its own.')).getAttribute(
        'role',
      ),
    ).toBe('status');
  });

  it("lists telegrams of the operator's meters that gave no reading, with why, and leaves the section out when none", async () => {
    answers.set(DataQualityQueueDocument, () => ({
      dataQualityQueue: {
        issues: [],
        unknownRadioIds: [],
        untakenTelegrams: [
          {
            radioId: '12345678',
            reason: 'no_value',
            meterNumber: 'HW-1001-007',
            propertyId: '7',
            telegrams: 42,
            lastSeen: '2026-11-28T05:00:00.000Z',
            driver: 'multical21',
            detail: 'meter HW-1001-007 (hot-water-volume) is read from total_m3',
          },
        ],
      },
    }));
    render(<DataQuality lang="en" />);
    const section = await screen.findByTestId('untaken-telegrams');
    expect(within(section).getByRole('heading').textContent).toBe(
      'Telegrams of these meters that gave no reading',
    );
    const [, row] = within(section).getAllByRole('row');
    expect(row!.textContent).toContain('HW-1001-007');
    expect(row!.textContent).toContain('1001 · Solgården · Radio id 12345678 · multical21');
    expect(row!.textContent).toContain("No value for the meter's quantity");
    expect(row!.textContent).toContain('is read from total_m3');
    expect(row!.textContent).toContain('42');
    cleanup();
    answers.set(DataQualityQueueDocument, () => ({
      dataQualityQueue: { issues: [], unknownRadioIds: [], untakenTelegrams: [] },
    }));
    queryClient.clear();
    render(<DataQuality lang="en" />);
    await screen.findByText('No open data issues.');
    expect(screen.queryByTestId('untaken-telegrams')).toBeNull();
  });

  it('lists unknown radio ids with what to do about them', async () => {
    const unknown = { radioId: '87654321', reason: 'unknown_id', telegrams: 3, driver: 'multical603' };
    const seen = { firstSeen: '2026-11-28T03:00:00.000Z', lastSeen: '2026-11-28T05:00:00.000Z' };
    const queue = { issues: [], untakenTelegrams: [], unknownRadioIds: [{ ...unknown, ...seen }] };
    answers.set(DataQualityQueueDocument, () => ({ dataQualityQueue: queue }));
    render(<DataQuality lang="en" />);
    const section = await screen.findByTestId('radio-telegrams');
    expect(within(section).getByRole('heading').textContent).toBe('Unknown radio ids');
    expect(section.textContent).toContain('within half a minute the latest telegram it sent is taken in');
    expect(within(section).getAllByRole('row')[1]!.textContent).toMatch(/87654321.*multical603/);
    // Given to a meter by its number: refused with the reason, then given, and said so.
    answers.set(GiveRadioIdDocument, (v: { meterNumber: string }) => {
      if (v.meterNumber !== 'HW-1001-007') throw new Error('METER_NOT_FOUND');
      return { giveRadioId: { radioId: '87654321', meterId: '7', meterNumber: 'HW-1001-007' } };
    });
    const input = within(section).getByLabelText('Meter number for radio id 87654321');
    fireEvent.change(input, { target: { value: 'HW-1001-700' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Give' }));
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'None of your properties has a meter with that number.',
    );
    fireEvent.change(input, { target: { value: 'HW-1001-007' } });
    fireEvent.submit(input.closest('form')!);
    expect((await within(section).findByRole('status')).textContent).toContain(
      'Given to meter HW-1001-007. Its latest telegram is taken in within half a minute.',
    );
    expect(document.activeElement?.textContent).toBe('Update the list');
    expect(lastVariables(GiveRadioIdDocument)).toEqual({ radioId: '87654321', meterNumber: 'HW-1001-007' });
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it("shows the MQTT feed's connection, its broker's error, a silent subscriber and the backlog; nothing without it", async () => {
    const subscriber = {
      clientId: 'tenant-app-ingest',
      url: 'mqtt://broker.example:1883',
      topic: 'wmbusmeters/#',
      connected: true,
      since: '2026-11-28T09:00:00.000Z',
      lastError: null,
      lastTelegramAt: '2026-11-28T10:04:00.000Z',
      reportedAt: '2026-11-28T10:05:00.000Z',
      running: true,
    };
    const queue = (mqttFeed: unknown) => ({
      dataQualityQueue: { issues: [], unknownRadioIds: [], untakenTelegrams: [], mqttFeed },
    });
    answers.set(DataQualityQueueDocument, () =>
      queue({ subscribers: [subscriber], waiting: 0, oldestWaitingAt: null }),
    );
    const { unmount } = render(<DataQuality lang="en" />);
    const feed = await screen.findByTestId('mqtt-feed');
    expect(within(feed).getByRole('heading').textContent).toBe('Radio feed (MQTT)');
    expect(feed.textContent).toContain('Connected to mqtt://broker.example:1883 since 28 Nov 2026, 10:00.');
    expect(feed.textContent).toContain('Topic wmbusmeters/# · client id tenant-app-ingest');
    expect(feed.textContent).toContain('Last telegram stored 28 Nov 2026, 11:04.');
    expect(feed.textContent).toContain('No telegram is waiting to be taken in.');
    unmount();
    queryClient.clear();
    answers.set(DataQualityQueueDocument, () =>
      queue({
        subscribers: [
          { ...subscriber, connected: false, lastError: 'connect ECONNREFUSED 10.0.0.5:1883' },
          { ...subscriber, clientId: 'old-worker', running: false, lastTelegramAt: null },
        ],
        waiting: 1234,
        oldestWaitingAt: '2026-11-28T08:30:00.000Z',
      }),
    );
    const second = render(<DataQuality lang="en" />);
    const down = await screen.findByTestId('feed-tenant-app-ingest');
    expect(down.textContent).toContain(
      'Not connected to mqtt://broker.example:1883 since 28 Nov 2026, 10:00.',
    );
    expect(down.textContent).toContain('The broker’s latest error: connect ECONNREFUSED 10.0.0.5:1883');
    const silent = screen.getByTestId('feed-old-worker');
    expect(silent.textContent).toContain('No report from the MQTT subscriber since 28 Nov 2026, 11:05.');
    expect(silent.textContent).toContain('No telegram stored yet.');
    expect(screen.getByTestId('mqtt-feed').textContent).toContain(
      '1,234 telegrams are waiting to be taken in, the oldest stored 28 Nov 2026, 09:30.',
    );
    second.unmount();
    queryClient.clear();
    answers.set(DataQualityQueueDocument, () => queue(null));
    render(<DataQuality lang="en" />);
    await screen.findByTestId('queue-empty');
    expect(screen.queryByTestId('mqtt-feed')).toBeNull();
  });
});
