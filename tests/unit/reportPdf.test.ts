/**
 * The monthly report's PDF carries the same formatted figures as the page: both come from reportView. The PDF
 * is read back (unpdf) and every figure of the view is looked for in it, in en, da and nb.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/client/i18n.ts';
import type { Language } from '../../src/lib/languages.ts';
import {
  consumerOrganisation,
  DEFAULT_REPORT_SETTINGS,
  disputeBodies,
} from '../../src/lib/reportSettings.ts';
import { parseFuelMix } from '../../src/server/reports/deployment.ts';
import { buildMonthlyReport } from '../../src/server/reports/model.ts';
import { renderReportPdf } from '../../src/server/reports/pdf.ts';
import { reportView, type Translate } from '../../src/server/reports/view.ts';

const settings = {
  ...DEFAULT_REPORT_SETTINGS,
  landlordType: 'social' as const,
  fuelMix: parseFuelMix('biomass=54,waste=46'),
  networkYear: 2025,
  networkCo2Tonnes: 41_200,
  networkCo2GramPerKwh: 62,
  primaryEnergyFactor: 0.85,
  fees: [
    { kind: 'tax' as const, amountPerYear: 365 },
    { kind: 'billing' as const, amountPerYear: 240 },
  ],
};

const report = buildMonthlyReport({
  month: '2025-10-01',
  costFrom: '2025-01-01',
  tenancy: { address: 'Solvej 1, 1. tv', apartment: '1. tv', zipcode: '8000', city: 'Aarhus C', areaM2: 62 },
  landlord: { name: 'Boligforeningen Test', phone: '+45 11 22 33 44', email: 'udlejer@test.test' },
  // An allocator-only flat: no heat meter, so its units are priced.
  meteredQuantities: ['hca', 'hot-water-volume'],
  apartment: {
    hca: { unit: 'hca-unit', months: { '2025-10-01': 715.4, '2025-09-01': 320, '2024-10-01': 709 } },
    'hot-water-volume': {
      unit: 'cubic-meter',
      months: { '2025-10-01': 2.358, '2024-10-01': 2.478 },
      co2Grams: { '2025-10-01': 2.358 * 7800 },
    },
  },
  propertyPerM2: { hca: { '2025-10-01': 6.94 } },
  allocatorFactors: {
    '2025-10-01': { method: 'supply-meter', kwhPerUnit: 20_000 / 17_000 },
    '2024-10-01': { method: 'supply-meter', kwhPerUnit: 19_000 / 16_500 },
  },
  days: Array.from({ length: 31 }, (_, i) => ({
    day: `2025-10-${String(i + 1).padStart(2, '0')}`,
    value: 23,
    degreeDays: 8,
    lastYearValue: 22.9,
    lastYearDegreeDays: 7.5,
  })),
  settings,
  bodies: { dispute: disputeBodies(settings, 'DK'), consumer: consumerOrganisation(settings, 'DK') },
  prices: [
    { quantity: 'hca', price: 1.1, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
    { quantity: 'hot-water-volume', price: 102.5, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
  ],
  co2: { 'hot-water-volume': 7800 },
});

const translate = (lang: Language): Translate => serverT(lang);

/** As the PDF's standard font writes them (WinAnsi has no subscript 2 and no ≈). */
const asPrinted = (text: string) => text.replace(/₂/g, '2').replace(/≈/g, '~').replace(/\s+/g, ' ');

describe('monthly report PDF', () => {
  for (const lang of ['en', 'da', 'nb'] as const) {
    it(`prints every figure of the page in ${lang}`, async () => {
      const t = translate(lang);
      const view = reportView(report, lang, t);
      const pdf = await renderReportPdf(report, lang, t, new Date('2025-11-05T10:00:00Z'));
      const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
      const printed = asPrinted(text);
      const figures = [
        view.title,
        ...view.use.rows.flatMap((r) => [...r.cells, ...r.estimates.filter((e): e is string => e !== null)]),
        ...(view.hotWater?.facts ?? []).map((f) => f.value),
        ...view.climate.facts.map((f) => f.value),
        ...('facts' in view.cost ? view.cost.facts.map((f) => f.value) : []),
        ...(view.fees?.rows.flat() ?? []),
        ...view.supply.fuelMix.map((f) => f.text),
        ...view.supply.facts.map((f) => f.value),
        ...view.bodies.flatMap((b) => [b.name, b.url]),
      ].filter((f) => f !== '–');
      expect(figures.length).toBeGreaterThan(30);
      for (const figure of figures) expect(printed, figure).toContain(asPrinted(figure));
      // Rendering and reading a PDF back takes seconds on a busy machine: no tight limit.
    }, 120_000);
  }

  it('formats the model once: hot water in kWh, fees pro rata by day, the social housing board', () => {
    const view = reportView(report, 'en', translate('en'));
    // 2.358 m³ × 2.5 kWh/(m³·K) × 50 K = 294.75 kWh, rounded once on display.
    expect(view.hotWater?.facts.map((f) => f.value)).toEqual(['2.358 m³', '295 kWh']);
    // 365 a year is 31 in October; 240 a year is 240 × 31 / 365 = 20.38.
    expect(view.fees?.rows.map((r) => r.map((cell) => cell.replace(/\u00a0/g, ' ')))).toEqual([
      ['Energy taxes', 'DKK 365.00', 'DKK 31.00'],
      ['Billing and statement', 'DKK 240.00', 'DKK 20.38'],
    ]);
    expect(view.bodies[0]).toMatchObject({ name: 'Beboerklagenævnet (din kommune)' });
    expect(view.bodies.map((b) => b.url)).toContain('https://taenk.dk');
    expect(view.supply.facts.map((f) => [f.id, f.value])).toEqual([
      ['network-co2', '41,200 t CO₂'],
      ['network-co2-per-kwh', '62 g'],
      ['primary-energy-factor', '0.85'],
    ]);
    expect(view.climate.facts.find((f) => f.id === 'hot-water-share')?.value).toBe('25 %');
  });
});
