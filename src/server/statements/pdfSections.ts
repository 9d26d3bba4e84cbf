/**
 * The statement PDF's later sections (issue 22): the weather-corrected comparison with the previous period as
 * a bar graph, the flat's meter readings with their scale factors, and for German properties the CO2KostAufG
 * split. Drawn with pdf-lib on the shared layout.
 */
import { rgb } from 'pdf-lib';
import { MUTED, type PdfLayout } from '../pdf/layout.ts';
import type { StatementExtras } from './extras.ts';
import type { Formatters, StatementDocument } from './pdf.ts';

const BAR_COLOURS = [rgb(0.62, 0.62, 0.6), rgb(0.55, 0.7, 0.85), rgb(0.13, 0.4, 0.66)];

/** Three horizontal bars: the previous period as measured, at this period's weather, and this period. */
export function drawLastYearGraph(
  layout: PdfLayout,
  lastYear: NonNullable<StatementExtras['lastYear']>,
  unit: string,
  f: Formatters,
): void {
  const bars = [
    { label: f.t('pdf.graph_last_measured'), value: lastYear.measured },
    { label: f.t('pdf.graph_last_corrected'), value: lastYear.corrected },
    { label: f.t('pdf.graph_this'), value: lastYear.tenant },
  ];
  const rowHeight = 20;
  const titleHeight = 16;
  const { regular, bold } = layout;
  layout.drawing(titleHeight + bars.length * rowHeight, ({ page, x, top, width, safe }) => {
    page.drawText(safe(f.t('pdf.graph_title', { unit })), { x, y: top - 10, size: 9.5, font: bold });
    const labelWidth = width * 0.42;
    const barLeft = x + labelWidth;
    // Room right of the longest bar for its value.
    const barSpace = width - labelWidth - 70;
    const max = Math.max(...bars.map((b) => b.value), 1e-9);
    bars.forEach((bar, i) => {
      const rowTop = top - titleHeight - i * rowHeight;
      const label = safe(bar.label);
      page.drawText(label, {
        x,
        y: rowTop - 13,
        size: 8.5,
        font: regular,
        color: MUTED,
        maxWidth: labelWidth - 6,
      });
      const length = Math.max(0.5, (bar.value / max) * barSpace);
      page.drawRectangle({ x: barLeft, y: rowTop - 16, width: length, height: 13, color: BAR_COLOURS[i] });
      page.drawText(safe(`${f.number(bar.value, 0)} ${unit}`), {
        x: barLeft + length + 5,
        y: rowTop - 13,
        size: 9,
        font: i === 2 ? bold : regular,
      });
    });
  });
}

/** Section 12: every register meter of the flat, its readings, factor and use. */
export function writeMeterReadings(
  layout: PdfLayout,
  x: StatementExtras,
  s: StatementDocument,
  f: Formatters,
) {
  const { t, number } = f;
  layout.heading(t('pdf.s12'));
  if (x.meters.length === 0) {
    layout.text(t('pdf.no_meters'));
    return;
  }
  const edges = [0, 0.4, 0.56, 0.72, 0.84, 1];
  layout.row(
    [t('pdf.meter'), t('pdf.reading_start'), t('pdf.reading_end'), t('pdf.scale_factor'), t('pdf.meter_use')],
    {
      font: layout.bold,
      edges,
    },
  );
  const quantity = (q: string) => {
    const key = `pdf.meter_quantity.${q}`;
    const label = t(key);
    return label === key ? q : label;
  };
  for (const m of x.meters) {
    const name = [quantity(m.quantity), m.room, m.meterNumber].filter(Boolean).join(', ');
    const reading = (r: { value: number } | null) => (r ? number(r.value, 3) : t('pdf.reading_missing'));
    layout.row(
      [
        name,
        reading(m.start),
        reading(m.end),
        number(m.scaleFactor, 3),
        m.consumption === null ? '–' : number(m.consumption, 3),
      ],
      { edges },
    );
  }
  layout.text(t('pdf.meters_note', { start: f.date(s.periodStart), end: f.date(s.periodEnd) }), {
    size: 9,
    color: MUTED,
  });
}

/** Section 13 (German properties): the building's stage, the shares, the tenant's CO₂ cost and the basis. */
export function writeCo2Split(layout: PdfLayout, x: StatementExtras, s: StatementDocument, f: Formatters) {
  const split = x.co2Split;
  const co2 = s.details.co2;
  if (!split || !co2) return;
  const { t, number, amount } = f;
  const minor = (m: number) => amount((m / 100).toFixed(2));
  layout.heading(t('pdf.s13'));
  const range =
    split.upTo === null
      ? t('pdf.co2_range_last', { from: number(split.from, 0) })
      : t('pdf.co2_range', { from: number(split.from, 0), upTo: number(split.upTo, 0) });
  layout.text(
    t('pdf.co2_stage', {
      kg: number(co2.buildingKg, 0),
      area: number(s.details.area.propertyM2, 2),
      perM2: number(split.kgPerM2Year, 1),
      stage: split.stage,
      range,
    }),
    { gap: 2 },
  );
  layout.text(t('pdf.co2_shares', { tenant: split.tenantPercent, landlord: split.landlordPercent }));
  const edges = [0, 0.67, 1];
  layout.row([t('pdf.co2_your_cost'), minor(split.tenantCo2Cost)], { edges, font: layout.bold });
  layout.row([t('pdf.co2_tenant_part'), minor(split.tenantPart)], { edges });
  layout.row([t('pdf.co2_landlord_part'), minor(split.landlordPart)], { edges });
  const share = Number(co2.cost) > 0 ? (split.tenantCo2Cost / 100 / Number(co2.cost)) * 100 : 0;
  layout.text(t('pdf.co2_basis', { cost: amount(co2.cost), share: number(share, 2) }), {
    size: 9,
    color: MUTED,
  });
}
