/** The quantity page's table of the unit's meters: value, comparison and smiley, links to meter and room pages. */
import { useTranslation } from 'react-i18next';
import type { useTenantTable } from '../../client/operations/tenantTable.ts';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { CsvButton, type TableModel, TableScroll } from './DataTable.tsx';
import { roomSlug } from './graphModel.ts';
import { ComparisonSmiley } from './Kpis.tsx';
import { NoData } from './NoData.tsx';
import type { ValueFormat } from './valueFormat.ts';

export function MeterTable({
  rows,
  lang,
  format,
  comparisonName,
  base,
  fileParts,
}: {
  rows: NonNullable<ReturnType<typeof useTenantTable>['data']>['rows'];
  lang: Language;
  format: ValueFormat;
  comparisonName: string;
  base: string;
  fileParts: string[];
}) {
  const { t } = useTranslation('consumption');
  const unit = format.unit ? ` (${format.unit})` : '';
  const model: TableModel = {
    columns: [t('table.meter'), t('table.room'), `${t('table.value')}${unit}`, `${comparisonName}${unit}`],
    rows: rows.map((r) => {
      const name = r.object.measurementPoint?.name ?? r.label ?? r.object.id;
      const room = r.object.measurementPoint?.room ?? '';
      const v = r.values[0] ?? null;
      const c = r.comparisonValues[0] ?? null;
      return [
        { text: name, csv: name },
        { text: room, csv: room },
        { text: format.format(v), csv: csvNumber(v, lang, format.decimals) },
        { text: format.format(c), csv: csvNumber(c, lang, format.decimals) },
      ];
    }),
  };
  if (rows.length === 0) return <NoData inline />;
  return (
    <>
      <TableScroll label={t('table.meters_title')}>
        <table className="data-table" data-testid="meter-table">
          <thead>
            <tr>
              {model.columns.map((c, i) => (
                <th key={c} scope="col" className={i > 1 ? 'num' : undefined}>
                  {c}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t('table.smiley')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const room = r.object.measurementPoint?.room;
              const cells = model.rows[i]!;
              return (
                <tr key={r.object.id}>
                  <th scope="row">
                    <a href={`${base}/meter/${encodeURIComponent(r.object.id)}`}>{cells[0]!.text}</a>
                  </th>
                  <td>{room ? <a href={`${base}/room/${roomSlug(room)}`}>{room}</a> : ''}</td>
                  <td className="num">{cells[2]!.text}</td>
                  <td className="num">{cells[3]!.text}</td>
                  <td>
                    <ComparisonSmiley value={r.values[0] ?? null} reference={r.comparisonValues[0] ?? null} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <CsvButton model={model} lang={lang} fileParts={fileParts} label={t('table.meters_title')} />
    </>
  );
}
