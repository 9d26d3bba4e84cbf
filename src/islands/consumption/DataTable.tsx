/** A plain table of what a graph or list shows, and its CSV download (same numbers, same words). */
import { useTranslation } from 'react-i18next';
import { csvFileName, toCsv } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';

/** One cell: the text on screen and the CSV field. */
type Cell = { text: string; csv: string };
/** A table: column headers and rows of cells; the first column is the row header. */
export type TableModel = { columns: string[]; rows: Cell[][] };

/** Saves text as a file through a temporary link (no server round trip). */
export function download(fileName: string, text: string): void {
  // The byte-order mark lets spreadsheet programs read æ, ø, å and CO₂ as UTF-8.
  const blob = new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The CSV download button of a table model. */
export function CsvButton({
  model,
  lang,
  fileParts,
  label,
  empty,
}: {
  /** The table, or a function that builds it when the button is pressed (then `empty` says if it has rows). */
  model: TableModel | (() => TableModel);
  lang: Language;
  fileParts: string[];
  label: string;
  empty?: boolean;
}) {
  const { t } = useTranslation('consumption');
  return (
    <button
      type="button"
      className="button secondary small-button"
      disabled={typeof model === 'function' ? Boolean(empty) : model.rows.length === 0}
      onClick={() => {
        const table = typeof model === 'function' ? model() : model;
        download(
          csvFileName(...fileParts),
          toCsv(
            table.columns,
            table.rows.map((row) => row.map((c) => c.csv)),
            lang,
          ),
        );
      }}
    >
      <span aria-hidden="true">⤓ </span>
      {t('csv.download')}
      <span className="visually-hidden"> {label}</span>
    </button>
  );
}

/** A box that scrolls a wide table sideways by itself (and by keyboard), so the page never does. */
export function TableScroll({ label, children }: { label: string; children: React.ReactNode }) {
  const { t } = useTranslation('consumption');
  return (
    // biome-ignore lint/a11y/useSemanticElements: a section would add a landmark per table; a labelled group is what axe expects
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
    <div className="table-scroll" role="region" aria-label={t('table.region', { name: label })} tabIndex={0}>
      {children}
    </div>
  );
}

/** The table itself, scrollable inside its own box so the page never scrolls sideways. */
export function DataTable({ model, caption }: { model: TableModel; caption: string }) {
  return (
    <TableScroll label={caption}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {model.columns.map((c, i) => (
              <th key={c} scope="col" className={i === 0 ? undefined : 'num'}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.rows.map((row) => (
            <tr key={row.map((c) => c.csv).join('|')}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={model.columns[i]} scope="row">
                    {cell.text}
                  </th>
                ) : (
                  <td key={model.columns[i]} className="num">
                    {cell.text}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
