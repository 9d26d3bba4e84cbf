/**
 * Renders an allocation statement as a PDF (pdf-lib, standard Helvetica), in the numbered sections of a
 * Danish heat statement: costs, basis, share, advance payments, result, degree days, right to object.
 */
import type { PDFFont } from 'pdf-lib';
import { moneyFormat } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import { createPdfLayout, MUTED, type PdfLayout } from '../pdf/layout.ts';
import type { StatementExtras } from './extras.ts';
import type { StatementDetails } from './model.ts';
import { drawLastYearGraph, writeCo2Split, writeMeterReadings } from './pdfSections.ts';
import { reportsT } from './texts.ts';

/** What the PDF shows: the stored statement plus the tenancy and landlord it belongs to. */
export interface StatementDocument {
  id: number;
  periodStart: string;
  periodEnd: string;
  currency: string;
  fixedSharePercent: string;
  variableSharePercent: string;
  fixedAmount: string;
  variableAmount: string;
  advancePayments: string;
  balance: string;
  objectionDeadline: string;
  details: StatementDetails;
  tenant: string;
  tenancyRef: string;
  address: string;
  zipcode: string;
  city: string;
  landlord: string;
  landlordEmail: string | null;
  landlordPhone: string | null;
  tenancyId: number;
  propertyId: number;
  apartmentId: number;
  country: string;
}

/** Column edges of a two-column table: the label, and an amount right-aligned in the right third. */
const AMOUNT_EDGES = [0, 0.67, 1];

const localeOf = (lang: Language) => (lang === 'en' ? 'en-GB' : 'da-DK');

/** Renders the statement; the same input gives the same bytes except the creation date. */
export async function renderStatementPdf(
  s: StatementDocument,
  lang: Language,
  now = new Date(),
  extras?: StatementExtras,
): Promise<Uint8Array> {
  const t = reportsT(lang);
  const locale = localeOf(lang);
  const money = moneyFormat(s.currency, lang);
  const amount = (x: string | number) => money.format(Number(x));
  const number = (x: number, digits = 2) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(x);
  const date = (d: string) =>
    new Intl.DateTimeFormat(lang === 'nb' ? 'nb-NO' : locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${d}T12:00:00Z`),
    );

  const layout = await createPdfLayout({
    title: `${t('pdf.title')} ${s.periodStart} – ${s.periodEnd}`,
    lang,
    now,
  });
  const { text, heading, rule, bold } = layout;
  const row = (cells: string[], font?: PDFFont) => layout.row(cells, { font });
  /** A label and one amount: the amount gets the right third, so large totals stay on one line. */
  const pair = (label: string, value: string, font?: PDFFont) =>
    layout.row([label, value], { font, edges: AMOUNT_EDGES });

  // Header
  text(s.landlord, { size: 10, font: bold, color: MUTED, gap: 2 });
  text(t('pdf.title'), { size: 20, font: bold, gap: 2 });
  text(t('pdf.subtitle', { start: date(s.periodStart), end: date(s.periodEnd) }), {
    size: 11,
    color: MUTED,
    gap: 10,
  });
  text(`${t('pdf.tenant')}: ${s.tenant}`, { gap: 0 });
  text(`${t('pdf.address')}: ${s.address}, ${s.zipcode} ${s.city}`, { gap: 0 });
  text(`${t('pdf.tenancy')}: ${s.tenancyRef}`, { gap: 8 });
  rule();

  const { expenses, area, consumption, degreeDays } = s.details;
  const label = (type: string) => t(`expense.${type}`);

  heading(t('pdf.s1'));
  pair(t('pdf.expense'), t('pdf.property_total'), bold);
  let propertyTotal = 0;
  for (const e of expenses) {
    propertyTotal += Number(e.propertyTotal);
    pair(label(e.type), amount(e.propertyTotal));
  }
  pair(t('pdf.total'), amount(propertyTotal), bold);

  heading(t('pdf.s2'));
  text(
    t('pdf.fixed_basis', {
      percent: number(Number(s.fixedSharePercent)),
      tenant: number(area.tenantM2),
      property: number(area.propertyM2),
    }),
    { gap: 0 },
  );
  text(
    t('pdf.variable_basis', {
      percent: number(Number(s.variableSharePercent)),
      tenant: number(consumption.tenant),
      property: number(consumption.property),
      unit: t(`pdf.unit.${consumption.unit}`),
    }),
  );

  heading(t('pdf.s3'));
  row([t('pdf.expense'), t('pdf.fixed'), t('pdf.variable'), t('pdf.your_share')], bold);
  for (const e of expenses) {
    row([
      label(e.type),
      amount(e.tenantFixed),
      amount(e.tenantVariable),
      amount(Number(e.tenantFixed) + Number(e.tenantVariable)),
    ]);
  }
  row(
    [
      t('pdf.total'),
      amount(s.fixedAmount),
      amount(s.variableAmount),
      amount(Number(s.fixedAmount) + Number(s.variableAmount)),
    ],
    bold,
  );

  heading(t('pdf.s4'));
  pair(t('pdf.advance_text'), amount(s.advancePayments));

  heading(t('pdf.s5'));
  const balance = Number(s.balance);
  text(
    balance >= 0
      ? t('pdf.to_pay', { amount: amount(balance) })
      : t('pdf.refund', { amount: amount(-balance) }),
    {
      size: 13,
      font: bold,
    },
  );

  heading(t('pdf.s6'));
  text(
    t('pdf.degree_days', { period: number(degreeDays.period, 0), normal: number(degreeDays.normalYear, 0) }),
    { gap: 0 },
  );
  const diff = ((degreeDays.period - degreeDays.normalYear) / degreeDays.normalYear) * 100;
  text(t(diff >= 0 ? 'pdf.colder' : 'pdf.warmer', { percent: number(Math.abs(diff), 0) }));

  heading(t('pdf.s7'));
  text(t('pdf.object_text', { landlord: s.landlord, deadline: date(s.objectionDeadline) }));
  const contact = [s.landlordEmail, s.landlordPhone].filter(Boolean).join(' · ');
  if (contact) text(t('pdf.contact', { contact }));

  if (extras) writeExtras(layout, extras, s, { t, amount, number, date });

  layout.footer(
    (page, pages) =>
      `${t('pdf.footer', { id: s.id, date: now.toISOString().slice(0, 10) })}   ${page}/${pages}`,
  );
  return layout.pdf.save();
}

export interface Formatters {
  t: ReturnType<typeof reportsT>;
  amount: (x: string | number) => string;
  number: (x: number, digits?: number) => string;
  date: (d: string) => string;
}

/** A change in whole percent with its sign; a change that rounds to 0 has none ("0 %", never "−0 %"). */
function signed(x: number, number: Formatters['number']): string {
  const r = Math.round(x);
  return `${r > 0 ? '+' : r < 0 ? '−' : ''}${number(Math.abs(r), 0)} %`;
}

/** Sections 8–11 (issue 22): prices, comparisons, the heat supply with taxes and fees, and where to turn. */
function writeExtras(layout: PdfLayout, x: StatementExtras, s: StatementDocument, f: Formatters): void {
  const { t, amount, number } = f;
  const { heading, text, bold } = layout;
  const unit = t(`pdf.unit.${s.details.consumption.unit}`);

  heading(t('pdf.s8'));
  layout.row([t('pdf.expense'), '', t('pdf.price_per_unit', { unit }), t('pdf.price_per_m2')], {
    font: bold,
  });
  for (const p of x.prices)
    layout.row([t(`expense.${p.type}`), '', amount(p.perUnit.toFixed(2)), amount(p.perM2.toFixed(2))]);
  text(t('pdf.prices_note'), { size: 9, color: MUTED });

  heading(t('pdf.s9'));
  if (x.normalisedUser)
    text(
      t('pdf.normalised', {
        tenant: number(x.normalisedUser.tenant, 0),
        normal: number(x.normalisedUser.normal, 0),
        unit,
        change: signed(x.normalisedUser.changePercent, number),
      }),
      { gap: 4 },
    );
  text(
    x.lastYear
      ? t('pdf.last_year', {
          start: f.date(x.lastYear.start),
          end: f.date(x.lastYear.end),
          measured: number(x.lastYear.measured, 0),
          corrected: number(x.lastYear.corrected, 0),
          tenant: number(x.lastYear.tenant, 0),
          unit,
          change: signed(x.lastYear.changePercent, number),
          share: number(x.settings.hotWaterShare * 100, 0),
        })
      : t('pdf.no_last_year'),
  );
  if (x.lastYear) drawLastYearGraph(layout, x.lastYear, unit, f);

  heading(t('pdf.s10'));
  const { settings } = x;
  if (settings.fuelMix.length > 0)
    text(
      `${t('report.fuel_mix')}: ${settings.fuelMix.map((m) => `${t(`fuel.${m.source}`)} ${number(m.percent, 0)} %`).join(', ')}`,
      { gap: 0 },
    );
  const year = settings.networkYear ?? '';
  if (settings.networkCo2Tonnes !== null)
    text(`${t('report.network_co2', { year })}: ${number(settings.networkCo2Tonnes, 0)} t CO2`, { gap: 0 });
  if (settings.networkCo2GramPerKwh !== null)
    text(`${t('report.network_co2_per_kwh', { year })}: ${number(settings.networkCo2GramPerKwh, 0)} g CO2`, {
      gap: 0,
    });
  if (settings.primaryEnergyFactor !== null)
    text(`${t('report.primary_energy_factor')}: ${number(settings.primaryEnergyFactor, 2)}`, { gap: 0 });
  if (settings.fees.length > 0) {
    text('', { gap: 2 });
    layout.row([t('report.fees_heading'), t('report.fee_col_year')], { font: bold, edges: AMOUNT_EDGES });
    for (const fee of settings.fees)
      layout.row([t(`fees.${fee.kind}`), amount(fee.amountPerYear)], { edges: AMOUNT_EDGES });
  }

  heading(t('pdf.s11'));
  text(t('report.bodies_intro'), { gap: 2 });
  for (const b of [...x.bodies.dispute, x.bodies.consumer])
    text(`${t(`bodies.${b.kind}`)}: ${b.name}, ${b.url}`, { gap: 0 });

  writeMeterReadings(layout, x, s, f);
  writeCo2Split(layout, x, s, f);
}
