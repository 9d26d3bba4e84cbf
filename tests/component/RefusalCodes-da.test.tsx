/**
 * Refusal codes in Danish: the API keys page's newest refusal and the data-quality page's untaken telegrams are
 * written from the code and its params (numbers and times as da-DK writes them), and a row stored before codes
 * were (code null) keeps the English text it has. The page's language is set before the islands load.
 */
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AdminPropertiesDocument,
  ApiKeysDocument,
  DataQualityQueueDocument,
} from '../../src/client/gql/admin.ts';
import { answers, resetBackend } from './adminBackend.ts';

vi.mock('../../src/client/admin/session.ts', () => import('./adminBackend.ts'));
vi.mock('../../src/islands/admin/useOperator.ts', () => import('./adminBackend.ts'));

document.documentElement.lang = 'da';
const { default: ApiKeys } = await import('../../src/islands/admin/ApiKeys.tsx');
const { default: DataQuality } = await import('../../src/islands/admin/DataQuality.tsx');

afterEach(resetBackend);

const day = (refusal: Record<string, unknown>) => ({
  day: '2026-03-04',
  batches: 1,
  rows: 10,
  accepted: 9,
  duplicate: 0,
  refused: 1,
  quarantined: 0,
  lastRefusalAt: '2026-03-04T08:15:00Z',
  ...refusal,
});

const key = (name: string, refusal: Record<string, unknown>) => ({
  id: name,
  name,
  prefix: `tk_${name}`,
  propertyIds: ['7'],
  createdAt: '2026-03-01T08:00:00Z',
  createdBy: 'admin@demo.test',
  lastUsedAt: '2026-03-04T09:00:00Z',
  revokedAt: null,
  activity: [day(refusal)],
});

describe("the API keys page's newest refusal", () => {
  it('in Danish from its code, with Danish numbers and times; the English text for a day without a code', async () => {
    answers.set(AdminPropertiesDocument, () => ({ properties: [] }));
    answers.set(ApiKeysDocument, () => ({
      apiKeys: [
        key('Coded', {
          lastRefusal:
            'line 1234: meter H-1 at 2026-03-04T07:00:00Z has value 1500.5 here but 1400.25 on line 12',
          lastRefusalLine: 1234,
          lastRefusalCode: 'conflicting_value_in_batch',
          lastRefusalParams: {
            meter: 'H-1',
            timestamp: '2026-03-04T07:00:00Z',
            value: '1500.5',
            otherValue: '1400.25',
            otherLine: 12,
          },
        }),
        key('Unknown', {
          lastRefusal: 'line 3: unknown meter number "X-9"',
          lastRefusalLine: 3,
          lastRefusalCode: 'unknown_meter',
          lastRefusalParams: { meter: 'X-9' },
        }),
        key('Old', {
          lastRefusal: 'line 12: unknown meter number "X-9"',
          lastRefusalLine: null,
          lastRefusalCode: null,
          lastRefusalParams: null,
        }),
      ],
    }));
    render(<ApiKeys lang="da" />);
    const refusal = async (name: string) =>
      within(await screen.findByTestId(`key-${name}`)).getByTestId('last-refusal').textContent;
    expect(await refusal('Coded')).toBe(
      'Senest afvist 4. mar. 2026, 09.15, linje 1.234: Måler H-1 har værdien 1.500,5 den 4. mar. 2026, 08.00 her, ' +
        'men 1.400,25 i linje 12',
    );
    expect(await refusal('Unknown')).toBe(
      'Senest afvist 4. mar. 2026, 09.15, linje 3: Ukendt målernummer »X-9«',
    );
    expect(await refusal('Old')).toBe(
      'Senest afvist 4. mar. 2026, 09.15: line 12: unknown meter number "X-9"',
    );
  });
});

describe("the data-quality page's untaken telegrams", () => {
  const untaken = (
    meterNumber: string,
    reason: string,
    detail: string,
    code: string | null,
    params: unknown,
  ) => ({
    radioId: `R-${meterNumber}`,
    reason,
    meterNumber,
    propertyId: '7',
    telegrams: 3,
    firstSeen: '2026-03-01T08:00:00Z',
    lastSeen: '2026-03-04T08:00:00Z',
    driver: null,
    detail,
    detailCode: code,
    detailParams: params,
  });

  it('say why in Danish from the code; the parser’s message stays raw; an uncoded row shows its English detail', async () => {
    answers.set(AdminPropertiesDocument, () => ({ properties: [] }));
    answers.set(DataQualityQueueDocument, () => ({
      dataQualityQueue: {
        issues: [],
        unknownRadioIds: [],
        untakenTelegrams: [
          untaken('W-1', 'no_value', 'meter W-1 (cold-water-volume) is read from total_m3', 'no_value', {
            meter: 'W-1',
            quantity: 'cold-water-volume',
            fields: ['total_m3'],
          }),
          untaken(
            'T-1',
            'refused',
            'value 95.5 is outside the plausible range -40 to 70 for indoor-temperature',
            'out_of_range',
            { value: '95.5', min: -40, max: 70, quantity: 'indoor-temperature' },
          ),
          untaken('H-1', 'malformed', 'no "timestamp" with a UTC offset', 'malformed', {
            message: 'no "timestamp" with a UTC offset',
          }),
          untaken('H-2', 'refused', 'value -5 is negative; a register never is', null, null),
        ],
      },
    }));
    render(<DataQuality lang="da" />);
    const section = await screen.findByTestId('untaken-telegrams');
    const details = within(section)
      .getAllByTestId('untaken-detail')
      .map((d) => d.textContent);
    expect(details).toEqual([
      'Måler W-1 (koldt vand) aflæses fra total_m3',
      'Værdien 95,5 ligger uden for det plausible interval -40 til 70 for indetemperatur',
      'Fortolkeren siger (på engelsk): no "timestamp" with a UTC offset',
      'value -5 is negative; a register never is',
    ]);
  });
});
