/**
 * No heading of the statement PDF ends a page alone (issue 22: "12. Meter readings" sat at the foot of a page
 * with its table on the next). The statement is rendered with more and more content before its later sections
 * (fees, meters, contact lines), so every numbered heading lands near a page foot in some layout; each page is
 * read back (pdf.js through unpdf) and its last line above the footer must not be a heading, and every heading
 * must share its page with the line after it. The same layout writes the monthly report's PDF.
 * STATEMENT_PDF_DIR=<dir> keeps, per language, a PDF whose meter heading moved to the next page, to look at.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/lib/languages.ts';
import {
  consumerOrganisation,
  DEFAULT_REPORT_SETTINGS,
  disputeBodies,
  type PropertyReportSettings,
} from '../../src/lib/reportSettings.ts';
import { statementExtras } from '../../src/server/statements/extras.ts';
import type { StatementMeterReading } from '../../src/server/statements/meters.ts';
import type { StatementDetails } from '../../src/server/statements/model.ts';
import { renderStatementPdf, type StatementDocument } from '../../src/server/statements/pdf.ts';
import { reportsT } from '../../src/server/statements/texts.ts';

const FEE_KINDS = ['tax', 'levy', 'metering', 'reading', 'billing'] as const;

function statement(country: string): StatementDocument {
  const details: StatementDetails = {
    area: { tenantM2: 72, propertyM2: 1_680 },
    consumption: { unit: 'kilo-watt-hour', tenant: 5_210.4, property: 118_400 },
    expenses: [
      { type: 'heating', propertyTotal: '496000.00', tenantFixed: '8502.86', tenantVariable: '13095.91' },
      { type: 'meter-rental', propertyTotal: '8640.00', tenantFixed: '148.11', tenantVariable: '228.12' },
      { type: 'administration', propertyTotal: '3920.00', tenantFixed: '67.20', tenantVariable: '103.50' },
    ],
    degreeDays: { period: 2_710, normalYear: 2_905 },
    ...(country === 'DE' ? { co2: { buildingKg: 61_000, cost: '3477.00' } } : {}),
  } as StatementDetails;
  return {
    id: 7,
    periodStart: '2025-06-01',
    periodEnd: '2026-05-31',
    currency: 'DKK',
    fixedSharePercent: '40',
    variableSharePercent: '60',
    fixedAmount: '8718.17',
    variableAmount: '13427.53',
    advancePayments: '21600.00',
    balance: '545.70',
    objectionDeadline: '2026-09-11',
    details,
    tenant: 'Karen Holm',
    tenancyRef: 'T-1001-004',
    address: 'Solgårdsvej 12, 2. th',
    zipcode: '2300',
    city: 'København S',
    landlord: 'Solgården ApS',
    landlordEmail: 'udlejer@solgaarden.test',
    landlordPhone: '+45 33 12 34 56',
    tenancyId: 4,
    propertyId: 1,
    apartmentId: 4,
    country,
  };
}

function meters(count: number): StatementMeterReading[] {
  return Array.from({ length: count }, (_, i) => ({
    meterNumber: `HCA-${1000 + i}`,
    quantity: i === 0 ? 'heat-energy' : 'hca',
    room: i === 0 ? null : `Room ${i}`,
    start: { at: '2025-06-01T00:00:00+02:00', value: 1000 + i * 10 },
    end: { at: '2026-06-01T00:00:00+02:00', value: 1800 + i * 20 },
    scaleFactor: i === 0 ? 1 : 1.25,
    consumption: i === 0 ? 800 : (800 + i * 10) * 1.25,
  }));
}

/** The lines of each page, top to bottom, without the footer: text items grouped by their baseline. */
async function pageLines(bytes: Uint8Array): Promise<string[][]> {
  const doc = await getDocumentProxy(bytes);
  const pages: string[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const byY = new Map<number, string[]>();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const y = Math.round(item.transform[5] as number);
      // The footer sits at half the margin (28 pt).
      if (y < 40) continue;
      byY.set(y, [...(byY.get(y) ?? []), item.str]);
    }
    pages.push(
      [...byY.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, parts]) => parts.join(' ').replace(/\s+/g, ' ').trim()),
    );
  }
  return pages;
}

async function render(lang: Language, country: string, fees: number, meterCount: number, contact: boolean) {
  const settings: PropertyReportSettings = {
    ...DEFAULT_REPORT_SETTINGS,
    fuelMix: [
      { source: 'biomass', percent: 54 },
      { source: 'waste', percent: 46 },
    ],
    networkYear: 2025,
    networkCo2Tonnes: 41_200,
    networkCo2GramPerKwh: 62,
    primaryEnergyFactor: 0.85,
    fees: FEE_KINDS.slice(0, fees).map((kind) => ({ kind, amountPerYear: 100 })),
  };
  const s = statement(country);
  if (!contact) {
    s.landlordEmail = null;
    s.landlordPhone = null;
  }
  const previous = {
    periodStart: '2024-06-01',
    periodEnd: '2025-05-31',
    details: { ...s.details, consumption: { ...s.details.consumption, tenant: 5_480 } },
  };
  const extras = statementExtras(
    s,
    previous,
    settings,
    { dispute: disputeBodies(settings, country), consumer: consumerOrganisation(settings, country) },
    meters(meterCount),
  );
  return renderStatementPdf(s, lang, new Date('2026-08-01T10:00:00Z'), extras);
}

describe('statement PDF: no heading alone at the foot of a page', () => {
  for (const lang of ['en', 'da', 'nb'] as const) {
    it(`keeps every heading with its first lines (${lang})`, async () => {
      const t = reportsT(lang);
      const headings = new Set(Array.from({ length: 13 }, (_, i) => t(`pdf.s${i + 1}`)));
      let multiPage = 0;
      let checkedHeadings = 0;
      let meterHeadingLow = false;
      for (const country of ['DK', 'DE'])
        for (let fees = 0; fees <= FEE_KINDS.length; fees++)
          for (const meterCount of [1, 3, 6])
            for (const contact of [true, false]) {
              const bytes = await render(lang, country, fees, meterCount, contact);
              // pdf.js takes the buffer over: read a copy.
              const pages = await pageLines(bytes.slice());
              const where = `${country}, ${fees} fees, ${meterCount} meters, contact ${contact}`;
              if (pages.length > 1) multiPage++;
              pages.forEach((lines, p) => {
                expect(lines.length, `page ${p + 1} has lines (${where})`).toBeGreaterThan(0);
                expect(
                  headings.has(lines.at(-1)!),
                  `page ${p + 1} ends with "${lines.at(-1)}" (${where})`,
                ).toBe(false);
                lines.forEach((line, i) => {
                  if (!headings.has(line)) return;
                  checkedHeadings++;
                  // The heading's next line is on its page, and it is not another heading.
                  expect(headings.has(lines[i + 1]!), `"${line}" is followed by a heading (${where})`).toBe(
                    false,
                  );
                  // "12. Meter readings" keeps its table's header row and first meter with it.
                  if (line === t('pdf.s12')) {
                    expect(lines[i + 2], `first meter under "${line}" (${where})`).toMatch(/^.*\d/);
                    if (i > lines.length - 6) meterHeadingLow = true;
                    // STATEMENT_PDF_DIR: keep a PDF whose meter heading moved to the top of a page, to look at.
                    if (i === 0 && process.env.STATEMENT_PDF_DIR)
                      writeFileSync(
                        join(process.env.STATEMENT_PDF_DIR, `statement-s12-top-${lang}.pdf`),
                        bytes,
                      );
                  }
                });
              });
            }
      expect(multiPage).toBeGreaterThan(0);
      expect(checkedHeadings).toBeGreaterThan(100);
      // Some layout put the meter section's heading right at the foot of a page: the case that was broken.
      expect(meterHeadingLow).toBe(true);
    }, 120_000);
  }
});
