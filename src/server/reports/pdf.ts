/**
 * The monthly report as a PDF (pdf-lib), for tenants who print or post it: the same sections and the same
 * formatted figures as the page, both taken from reportView, so the two cannot disagree.
 */
import type { Language } from '../../lib/languages.ts';
import { createPdfLayout, MUTED } from '../pdf/layout.ts';
import type { MonthlyReport } from './model.ts';
import { reportView, type Translate } from './view.ts';

/** Renders one report in one language; `now` is only the document's creation date. */
export async function renderReportPdf(
  report: MonthlyReport,
  lang: Language,
  t: Translate,
  now = new Date(),
): Promise<Uint8Array> {
  const view = reportView(report, lang, t);
  const layout = await createPdfLayout({ title: view.title, lang, now });
  const { text, heading, rule, row, bold } = layout;
  const facts = (list: { label: string; value: string }[]) => {
    for (const f of list) row([f.label, '', '', f.value], { edges: [0, 0.6, 0.7, 0.8, 1] });
  };

  text(report.landlord.name, { size: 10, font: bold, color: MUTED, gap: 2 });
  text(view.title, { size: 20, font: bold, gap: 2 });
  text(view.address, { size: 11, color: MUTED, gap: 10 });
  rule();

  heading(t('reports:report.use_heading'));
  // Eight columns do not fit A4 side by side: the month's figures first, then per m², cost and CO₂.
  const [type, month, previous, lastYear, perM2, propertyPerM2, cost, co2] = view.use.columns;
  const edges = [0, 0.34, 0.56, 0.78, 1];
  row([type!, month!, previous!, lastYear!], { font: bold, edges });
  for (const r of view.use.rows) {
    row([r.label, r.cells[0]!, r.cells[1]!, r.cells[2]!], { edges });
    if (r.estimates.some((e) => e !== null)) row(['', ...r.estimates.map((e) => e ?? '')], { edges });
  }
  rule();
  row([type!, perM2!, propertyPerM2!, cost!, co2!], { font: bold, edges: [0, 0.26, 0.48, 0.68, 0.84, 1] });
  for (const r of view.use.rows)
    row([r.label, r.cells[3]!, r.cells[4]!, r.cells[5]!, r.cells[6]!], {
      edges: [0, 0.26, 0.48, 0.68, 0.84, 1],
    });
  for (const note of view.use.notes) text(note, { size: 8.5, color: MUTED });

  if (view.hotWater) {
    heading(t('reports:report.hot_water_heading'));
    facts(view.hotWater.facts);
    text(view.hotWater.method, { size: 8.5, color: MUTED });
  }

  heading(t('reports:report.climate_heading'));
  text(view.climate.intro);
  facts(view.climate.facts);
  if (view.climate.verdict) text(view.climate.verdict, { font: bold });
  for (const note of view.climate.notes) text(note, { size: 8.5, color: MUTED });
  text(
    `${view.climate.normalSource.text} ${view.climate.normalSource.name} (${view.climate.normalSource.url})`,
    {
      size: 8.5,
      color: MUTED,
    },
  );

  heading(t('reports:report.cost_heading'));
  if ('facts' in view.cost) {
    facts(view.cost.facts);
    text(view.cost.note, { size: 8.5, color: MUTED });
  } else text(view.cost.missing);

  if (view.fees) {
    heading(t('reports:report.fees_heading'));
    const feeEdges = [0, 0.5, 0.75, 1];
    row([view.fees.columns[0]!, view.fees.columns[1]!, view.fees.columns[2]!], {
      font: bold,
      edges: feeEdges,
    });
    for (const r of view.fees.rows) row(r, { edges: feeEdges });
    text(view.fees.note, { size: 8.5, color: MUTED });
  }

  heading(t('reports:report.supply_heading'));
  if (view.supply.fuelMix.length > 0) {
    text(t('reports:report.fuel_mix'), { font: bold });
    facts(view.supply.fuelMix.map((f) => ({ label: f.label, value: f.text })));
  }
  facts(view.supply.facts);

  heading(t('reports:report.landlord_heading'));
  text(report.landlord.name, { font: bold, gap: 0 });
  const contact = [report.landlord.phone, report.landlord.email].filter(Boolean).join(' · ');
  if (contact) text(contact);

  heading(t('reports:report.bodies_heading'));
  text(t('reports:report.bodies_intro'));
  for (const b of view.bodies) text(`${b.description}: ${b.name}, ${b.url}`, { gap: 1 });

  layout.footer((page, pages) =>
    t('reports:report.pdf_footer', { month: view.monthName(report.month), page, pages }),
  );
  return layout.pdf.save();
}
