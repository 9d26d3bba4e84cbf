/**
 * Renders an allocation statement as a PDF (pdf-lib, standard Helvetica), in the numbered sections of a
 * Danish heat statement: costs, basis, share, advance payments, result, degree days, right to object.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { moneyFormat } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import type { StatementDetails } from './model.ts';
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
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.11, 0.1, 0.09);
const MUTED = rgb(0.34, 0.33, 0.31);
const LINE = rgb(0.85, 0.84, 0.83);

const localeOf = (lang: Language) => (lang === 'en' ? 'en-GB' : 'da-DK');

/** Renders the statement; the same input gives the same bytes except the creation date. */
export async function renderStatementPdf(
  s: StatementDocument,
  lang: Language,
  now = new Date(),
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

  const pdf = await PDFDocument.create();
  pdf.setTitle(`${t('pdf.title')} ${s.periodStart} – ${s.periodEnd}`);
  pdf.setLanguage(lang);
  pdf.setCreator('Tenant app');
  pdf.setCreationDate(now);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const width = A4.width - 2 * MARGIN;

  const ensure = (space: number) => {
    if (y - space < MARGIN + 24) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const wrap = (text: string, font: PDFFont, size: number, max: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > max && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };
  const text = (
    value: string,
    opts: { size?: number; font?: PDFFont; color?: typeof INK; gap?: number } = {},
  ) => {
    const size = opts.size ?? 10;
    const font = opts.font ?? regular;
    for (const line of wrap(value, font, size, width)) {
      ensure(size + 4);
      page.drawText(line, { x: MARGIN, y: y - size, size, font, color: opts.color ?? INK });
      y -= size + 4;
    }
    y -= opts.gap ?? 4;
  };
  const heading = (value: string) => {
    ensure(40);
    y -= 10;
    text(value, { size: 12.5, font: bold, gap: 6 });
  };
  const rule = () => {
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4.width - MARGIN, y }, thickness: 0.6, color: LINE });
    y -= 6;
  };
  /** A table row: the first cell left-aligned, the others right-aligned in fixed columns. */
  const row = (cells: string[], font: PDFFont = regular) => {
    const size = 9.5;
    ensure(size + 8);
    const columns = [0, 0.48, 0.66, 0.84, 1].map((f) => MARGIN + f * width);
    cells.forEach((cell, i) => {
      if (i === 0) page.drawText(cell, { x: columns[0]!, y: y - size, size, font, color: INK });
      else {
        const right = columns[Math.min(i + 1, columns.length - 1)]! - (i === cells.length - 1 ? 0 : 8);
        const w = font.widthOfTextAtSize(cell, size);
        page.drawText(cell, { x: right - w, y: y - size, size, font, color: INK });
      }
    });
    y -= size + 7;
  };

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
  row([t('pdf.expense'), '', '', t('pdf.property_total')], bold);
  let propertyTotal = 0;
  for (const e of expenses) {
    propertyTotal += Number(e.propertyTotal);
    row([label(e.type), '', '', amount(e.propertyTotal)]);
  }
  row([t('pdf.total'), '', '', amount(propertyTotal)], bold);

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
  row([t('pdf.advance_text'), '', '', amount(s.advancePayments)]);

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

  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const footer = `${t('pdf.footer', { id: s.id, date: now.toISOString().slice(0, 10) })}   ${i + 1}/${pages.length}`;
    p.drawText(footer, { x: MARGIN, y: MARGIN / 2, size: 8, font: regular, color: MUTED });
  });
  return pdf.save();
}
