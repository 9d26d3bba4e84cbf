import { describe, expect, it } from 'vitest';
import { axisLabels } from '../../src/islands/consumption/ConsumptionChart.tsx';
import { graphTable } from '../../src/islands/consumption/GraphPanel.tsx';
import { quantityGraphModel, roomSlug } from '../../src/islands/consumption/graphModel.ts';
import { valueFormat } from '../../src/islands/consumption/valueFormat.ts';
import { bucketLabel, localTimestamp } from '../../src/lib/buckets.ts';
import { csvFileName, csvNumber, csvSeparator, toCsv } from '../../src/lib/csv.ts';
import { resolutionChoices } from '../../src/lib/resolutionChoices.ts';
import { tenancyQuantities } from '../../src/lib/tenancyQuantities.ts';

describe('CSV', () => {
  it('uses a comma in English and a semicolon where the decimal mark is a comma', () => {
    expect(csvSeparator('en')).toBe(',');
    expect(csvSeparator('da')).toBe(';');
    expect(csvSeparator('nb')).toBe(';');
  });

  it('writes numbers as shown: same rounding, no grouping, the language decimal mark, empty for a gap', () => {
    expect(csvNumber(1234.5678, 'en', 2)).toBe('1234.57');
    expect(csvNumber(1234.5678, 'da', 2)).toBe('1234,57');
    expect(csvNumber(0.0005, 'en', 3)).toBe('0.001');
    expect(csvNumber(-0.0001, 'en', 2)).toBe('0.00');
    expect(csvNumber(12, 'en', 0)).toBe('12');
    expect(csvNumber(null, 'en', 2)).toBe('');
    expect(csvNumber(Number.NaN, 'da', 2)).toBe('');
  });

  it('quotes fields holding the separator, quotes or line breaks, and ends lines with CRLF', () => {
    const text = toCsv(
      ['Room', 'Value'],
      [
        ['Living room, east', '1.5'],
        ['Say "hi"', '2'],
      ],
      'en',
    );
    expect(text).toBe('Room,Value\r\n"Living room, east",1.5\r\n"Say ""hi""",2\r\n');
    expect(toCsv(['Rum', 'Værdi'], [['Stue, øst', '1,5']], 'da')).toBe('Rum;Værdi\r\nStue, øst;1,5\r\n');
  });

  it('makes safe file names', () => {
    expect(csvFileName('heat-energy', '', '2025-03-01', '2025-03-31')).toBe(
      'heat-energy_2025-03-01_2025-03-31.csv',
    );
    expect(csvFileName('a/b c', '../x')).toBe('a-b-c_..-x.csv');
  });
});

describe('bucket labels', () => {
  it('labels buckets per resolution in the language, from the Copenhagen timestamp', () => {
    expect(bucketLabel('2025-03-05T00:00:00+01:00', 'DAY', 'en')).toBe('5 Mar');
    expect(bucketLabel('2025-03-05T00:00:00+01:00', 'DAY', 'da')).toBe('5. mar.');
    expect(bucketLabel('2025-03-30T03:00:00+02:00', 'HOUR', 'en')).toBe('03:00');
    expect(bucketLabel('2025-03-30T03:00:00+02:00', 'HOUR', 'en', { withDay: true })).toBe('30 Mar 03:00');
    expect(bucketLabel('2025-03-17T00:00:00+01:00', 'WEEK', 'en', { long: true, weekWord: 'Week' })).toBe(
      'Week 12, 2025',
    );
    expect(bucketLabel('2025-03-01T00:00:00+01:00', 'MONTH', 'en')).toBe('Mar 2025');
    expect(bucketLabel('2025-01-01T00:00:00+01:00', 'YEAR', 'en')).toBe('2025');
    expect(localTimestamp('2025-10-26T02:00:00+01:00')).toBe('2025-10-26 02:00');
  });
});

describe('resolution choices', () => {
  it('always offers the ruled resolution, hourly only with hourly data, coarse ones only for long periods', () => {
    const day = { startDate: '2025-03-19', endDate: '2025-03-19' };
    expect(resolutionChoices(day, true, 'hourly')).toEqual(['hourly', 'daily']);
    expect(resolutionChoices(day, false, 'daily')).toEqual(['daily']);
    const month = { startDate: '2025-02-18', endDate: '2025-03-19' };
    expect(resolutionChoices(month, true, 'daily')).toEqual(['daily', 'weekly']);
    const year = { startDate: '2024-03-20', endDate: '2025-03-19' };
    expect(resolutionChoices(year, true, 'monthly')).toEqual(['daily', 'weekly', 'monthly', 'yearly']);
  });
});

describe('tenancy quantities and room slugs', () => {
  it('maps meterUnits legacy kinds to consumption pages in SPEC order, with indoor climate apart', () => {
    expect(
      tenancyQuantities([
        { kind: 'coldwater' },
        { kind: 'energy' },
        { kind: 'radiator' },
        { kind: 'humidity' },
      ]),
    ).toEqual({ consumption: ['heat-energy', 'hca', 'cold-water-volume'], climate: true });
    expect(tenancyQuantities([{ kind: 'nonsense' }])).toEqual({ consumption: [], climate: false });
  });

  it('slugs room names to lowercase with dashes (SPEC §2)', () => {
    expect(roomSlug('Living room')).toBe('living-room');
    expect(roomSlug('Køkken/Alrum')).toBe('kokken-alrum');
    expect(roomSlug('Spisestue – Øst')).toBe('spisestue-ost');
  });
});

describe('graph table', () => {
  it('has one row per bucket with local time, shown values and gaps left empty, and notes open buckets', () => {
    const graph = {
      timestamps: ['2025-03-18T00:00:00+01:00', '2025-03-19T00:00:00+01:00'],
      partial: [false, true],
      graphs: [
        {
          type: 'HOURLY_VALUES',
          object: { id: '1', kind: 'UNIT' as const, unit: null, group: null, measurementPoint: null },
          consumption: [
            {
              quantityDescriptor: { quantity: 'cold-water-volume', normalized: false, expressedAs: null },
              values: [0.12345, null],
              relatedValues: [
                { type: 'LAST_PERIOD', values: [0.2, 0.1] },
                { type: 'LAST_YEAR', values: [null, null] },
              ],
              climateCorrection: null,
              kwhEstimateMethod: null,
              estimated: [true, false],
            },
          ],
        },
      ],
    };
    const format = valueFormat('cold-water-volume', 'HOURLY_VALUES', 'en');
    const model = quantityGraphModel(graph, 'cold-water-volume', 'DAY', format, 'Yours', [
      { type: 'LAST_PERIOD', name: 'Previous', color: '#000' },
      { type: 'LAST_YEAR', name: 'Last year', color: '#000' },
    ]);
    // LAST_YEAR has no value at all (before the data starts), so it is not drawn.
    expect(model.series.map((s) => s.name)).toEqual(['Yours', 'Previous']);
    const words = {
      time: 'Time',
      note: 'Note',
      partial: 'not over yet',
      week: 'Week',
      estimated: 'Estimated',
      yes: 'yes',
      no: 'no',
    };
    const table = graphTable(model, 'en', words);
    // The first day counts estimated hours: a column says so, in the table and the CSV.
    expect(table.columns).toEqual(['Time', 'Yours (m³)', 'Previous (m³)', 'Estimated', 'Note']);
    expect(table.rows.map((r) => r.map((c) => c.csv))).toEqual([
      ['2025-03-18 00:00', '0.123', '0.200', 'yes', ''],
      ['2025-03-19 00:00', '', '0.100', 'no', 'not over yet'],
    ]);
    // Without an estimated bucket there is no such column.
    const measured = graphTable({ ...model, estimated: [false, false] }, 'en', words);
    expect(measured.columns).toEqual(['Time', 'Yours (m³)', 'Previous (m³)', 'Note']);
    expect(table.rows[0]?.[1]?.text).toBe('0.123 m³');
    expect(table.rows[1]?.[1]?.text).toBe('–');
  });
});

describe('value formats', () => {
  it('shows consumption by SPEC §9 decimals, per m² with at least 2, CO₂ in whole grams and cost in money', () => {
    expect(valueFormat('heat-energy', 'HOURLY_VALUES', 'en').format(1234.4)).toBe('1,234 kWh');
    expect(valueFormat('heat-energy', 'HOURLY_VALUES', 'en', { normalized: true }).format(0.345)).toBe(
      '0.35 kWh / m²',
    );
    expect(valueFormat('cold-water-volume', 'HOURLY_VALUES', 'da').format(1.5)).toBe('1,500 m³');
    expect(valueFormat('heat-energy', 'CO2', 'en').format(1234.6)).toBe('1,235 g CO₂');
    expect(valueFormat('heat-energy', 'COST', 'da', { currency: 'DKK' }).format(12.5)).toBe('12,50\u00a0DKK');
    expect(valueFormat('heat-energy', 'HOURLY_VALUES', 'en').format(null)).toBe('–');
  });
});

describe('chart axis labels', () => {
  it('tells the repeated hour of the autumn DST change apart by its offset', () => {
    const timestamps = [
      '2025-10-26T01:00:00+02:00',
      '2025-10-26T02:00:00+02:00',
      '2025-10-26T02:00:00+01:00',
      '2025-10-26T03:00:00+01:00',
    ];
    const format = valueFormat('heat-energy', 'HOURLY_VALUES', 'en');
    const model = {
      timestamps,
      partial: [false, false, false, false],
      resolution: 'HOUR' as const,
      series: [],
      format,
    };
    expect(axisLabels(model, 'en', 'W')).toEqual(['01:00', '02:00 (+02:00)', '02:00 (+01:00)', '03:00']);
  });
});
