/**
 * A4 text layout on pdf-lib with the standard Helvetica fonts, shared by the statement and the monthly report
 * PDFs: wrapped paragraphs, headings, rules, right-aligned table rows, page breaks and a footer on every page.
 * A heading is never the last thing on a page: it moves to the next page with its first two lines of content.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.11, 0.1, 0.09);
export const MUTED = rgb(0.34, 0.33, 0.31);
const LINE = rgb(0.85, 0.84, 0.83);
type Colour = typeof INK;
/** Lines of content (text lines, table rows; a drawing counts as all of them) a heading keeps on its page. */
const KEEP_LINES = 2;

// Helvetica is WinAnsi-encoded: these characters are not in it, so they are written the nearest way it can.
const WIN_ANSI_FALLBACKS: Record<string, string> = {
  '₂': '2',
  '≈': '~',
  '−': '-',
  '\u202f': ' ',
  '\u2009': ' ',
};

export interface PdfLayout {
  pdf: PDFDocument;
  regular: PDFFont;
  bold: PDFFont;
  width: number;
  text(value: string, opts?: { size?: number; font?: PDFFont; color?: Colour; gap?: number }): void;
  heading(value: string): void;
  rule(): void;
  /** A table row: the first cell left-aligned, the others right-aligned at the column edges (fractions). */
  row(cells: string[], opts?: { font?: PDFFont; edges?: number[] }): void;
  /**
   * Reserves `height` points of the page (a new page when they do not fit) and calls `draw` with the page, the
   * text's left edge, the top of the space and the text width; `safe` makes a string writable in Helvetica.
   */
  drawing(
    height: number,
    draw: (area: {
      page: PDFPage;
      x: number;
      top: number;
      width: number;
      safe: (s: string) => string;
    }) => void,
  ): void;
  /** Writes `footer(page, pages)` at the foot of every page; call once, last. */
  footer(footer: (page: number, pages: number) => string): void;
}

/** Starts an A4 document with a title, language and creation date, ready to write top-down. */
export async function createPdfLayout(meta: { title: string; lang: string; now: Date }): Promise<PdfLayout> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(meta.title);
  pdf.setLanguage(meta.lang);
  pdf.setCreator('Tenant app');
  pdf.setCreationDate(meta.now);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const encodable = new Set(regular.getCharacterSet());
  const safe = (value: string) =>
    Array.from(value, (ch) => {
      const mapped = WIN_ANSI_FALLBACKS[ch] ?? ch;
      return encodable.has(mapped.codePointAt(0)!) ? mapped : '?';
    }).join('');

  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const width = A4.width - 2 * MARGIN;
  const bottom = MARGIN + 24;

  /**
   * Everything is written as units: `space` is what must fit below y for the unit to start on this page,
   * `advance` how far it moves y down, `lines` how many lines of content it counts as (a heading: none).
   */
  interface Unit {
    space: number;
    advance: number;
    lines: number;
    draw: (at: number) => void;
  }
  const newPage = () => {
    page = pdf.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
  };
  const drawUnit = (u: Unit) => {
    u.draw(y);
    y -= u.advance;
  };
  // A heading waits here with the units after it until they hold KEEP_LINES lines of content: then all of
  // them go on this page if they fit together, else on the next page, so a heading never ends a page alone.
  let kept: Unit[] | null = null;
  const keptLines = () => (kept ?? []).reduce((n, u) => n + u.lines, 0);
  const flush = () => {
    if (!kept) return;
    const units = kept;
    kept = null;
    const last = units.at(-1)!;
    const needed = units.slice(0, -1).reduce((h, u) => h + u.advance, 0) + last.space;
    if (y - needed < bottom) newPage();
    for (const u of units) drawUnit(u);
  };
  const place = (u: Unit) => {
    if (kept) {
      kept.push(u);
      if (keptLines() >= KEEP_LINES) flush();
      return;
    }
    if (u.space > 0 && y - u.space < bottom) newPage();
    drawUnit(u);
  };
  /** Vertical space only: kept with what comes before it, never a reason for a new page. */
  const gap = (points: number) => {
    if (points !== 0) place({ space: 0, advance: points, lines: 0, draw: () => {} });
  };
  const wrap = (value: string, font: PDFFont, size: number, max: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of value.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > max && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };
  const textUnits = (
    value: string,
    opts: { size?: number; font?: PDFFont; color?: Colour },
    lines: number,
  ): Unit[] => {
    const size = opts.size ?? 10;
    const font = opts.font ?? regular;
    return wrap(safe(value), font, size, width).map((line) => ({
      space: size + 4,
      advance: size + 4,
      lines,
      draw: (at) => page.drawText(line, { x: MARGIN, y: at - size, size, font, color: opts.color ?? INK }),
    }));
  };
  const layout: PdfLayout = {
    pdf,
    regular,
    bold,
    width,
    text(value, opts = {}) {
      for (const u of textUnits(value, opts, 1)) place(u);
      gap(opts.gap ?? 4);
    },
    heading(value) {
      // A heading after a kept group that already holds content starts a group of its own; right after
      // another heading (an empty section) the two stay together.
      if (kept && keptLines() > 0) flush();
      kept ??= [];
      gap(10);
      for (const u of textUnits(value, { size: 12.5, font: bold }, 0)) place(u);
      gap(6);
    },
    rule() {
      place({
        space: 0,
        advance: 6,
        lines: 0,
        draw: (at) =>
          page.drawLine({
            start: { x: MARGIN, y: at },
            end: { x: A4.width - MARGIN, y: at },
            thickness: 0.6,
            color: LINE,
          }),
      });
    },
    row(cells, opts = {}) {
      const size = 9.5;
      const lineHeight = size + 3;
      const font = opts.font ?? regular;
      const edges = (opts.edges ?? [0, 0.48, 0.66, 0.84, 1]).map((f) => MARGIN + f * width);
      // Cell i spans from its left edge to the next (the last cell to the right margin); a cell wider than
      // its span wraps within it, and the row is as tall as its tallest cell.
      const spans = cells.map((_, i) => {
        const right = edges[Math.min(i + 1, edges.length - 1)]! - (i > 0 && i < cells.length - 1 ? 8 : 0);
        const left = i === 0 ? edges[0]! : edges[i]!;
        return { left, right, lines: wrap(safe(cells[i] ?? ''), font, size, right - left - 6) };
      });
      const height = Math.max(1, ...spans.map((c) => c.lines.length)) * lineHeight + 4;
      place({
        space: height + 4,
        advance: height + 3,
        lines: 1,
        draw: (at) =>
          spans.forEach((cell, i) => {
            cell.lines.forEach((line, n) => {
              const x = i === 0 ? cell.left : cell.right - font.widthOfTextAtSize(line, size);
              page.drawText(line, { x, y: at - size - n * lineHeight, size, font, color: INK });
            });
          }),
      });
    },
    drawing(height, draw) {
      place({
        space: height + 4,
        advance: height + 4,
        lines: KEEP_LINES,
        draw: (at) => draw({ page, x: MARGIN, top: at, width, safe }),
      });
    },
    footer(footer) {
      // A heading still waiting (the document ended right after it) is written now.
      flush();
      const pages = pdf.getPages();
      pages.forEach((p, i) => {
        p.drawText(safe(footer(i + 1, pages.length)), {
          x: MARGIN,
          y: MARGIN / 2,
          size: 8,
          font: regular,
          color: MUTED,
        });
      });
    },
  };
  return layout;
}
