/** The quantity page's per-room values (SPEC §3 KPI rooms), each linking to its room page, with CSV. */
import { useTranslation } from 'react-i18next';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { CsvButton, type TableModel, TableScroll } from './DataTable.tsx';
import { roomSlug } from './graphModel.ts';
import type { ValueFormat } from './valueFormat.ts';

export function RoomList({
  rooms,
  lang,
  format,
  base,
  fileParts,
}: {
  rooms: { label: string; value: number | null }[];
  lang: Language;
  format: ValueFormat;
  base: string;
  fileParts: string[];
}) {
  const { t } = useTranslation('consumption');
  const unit = format.unit ? ` (${format.unit})` : '';
  const model: TableModel = {
    columns: [t('table.room'), `${t('table.value')}${unit}`],
    rows: rooms.map((r) => [
      { text: r.label, csv: r.label },
      { text: format.format(r.value), csv: csvNumber(r.value, lang, format.decimals) },
    ]),
  };
  return (
    <>
      <TableScroll label={t('table.rooms_title')}>
        <table className="data-table" data-testid="room-table">
          <thead>
            <tr>
              <th scope="col">{model.columns[0]}</th>
              <th scope="col" className="num">
                {model.columns[1]}
              </th>
            </tr>
          </thead>
          <tbody>
            {rooms.map((r, i) => (
              <tr key={r.label}>
                <th scope="row">
                  <a href={`${base}/room/${roomSlug(r.label)}`}>{r.label}</a>
                </th>
                <td className="num">{model.rows[i]![1]!.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <CsvButton model={model} lang={lang} fileParts={fileParts} label={t('table.rooms_title')} />
    </>
  );
}
