/** A meter's first and last register readout in the period (SPEC §7 readout query), with its number and CSV. */
import { useTranslation } from 'react-i18next';
import type { useReadoutMinMax } from '../../client/operations/readoutMinMax.ts';
import { bucketLabel, localTimestamp } from '../../lib/buckets.ts';
import { csvNumber } from '../../lib/csv.ts';
import type { Language } from '../../lib/languages.ts';
import { CsvButton, type TableModel } from './DataTable.tsx';
import { KpiGrid } from './Kpis.tsx';
import { valueFormat } from './valueFormat.ts';

/** Times are shown in the page's language ("27 Nov 2026 14:03"), and kept as YYYY-MM-DD HH:mm in the CSV. */
export function ReadoutList({
  readout,
  lang,
  quantity,
}: {
  readout: NonNullable<ReturnType<typeof useReadoutMinMax>['data']>;
  lang: Language;
  quantity: string;
}) {
  const { t } = useTranslation('consumption');
  const format = valueFormat(quantity, 'HOURLY_VALUES', lang);
  const model: TableModel = {
    columns: [t('readout.which'), t('readout.time'), t('readout.value')],
    rows: [
      [
        { text: t('readout.first'), csv: t('readout.first') },
        {
          text: bucketLabel(readout.firstReadoutTimestamp, 'HOUR', lang, { long: true }),
          csv: localTimestamp(readout.firstReadoutTimestamp),
        },
        {
          text: format.format(readout.firstReadoutValue),
          csv: csvNumber(readout.firstReadoutValue, lang, 3),
        },
      ],
      [
        { text: t('readout.last'), csv: t('readout.last') },
        {
          text: bucketLabel(readout.lastReadoutTimestamp, 'HOUR', lang, { long: true }),
          csv: localTimestamp(readout.lastReadoutTimestamp),
        },
        { text: format.format(readout.lastReadoutValue), csv: csvNumber(readout.lastReadoutValue, lang, 3) },
      ],
    ],
  };
  return (
    <>
      <p data-testid="meter-number">
        {t('readout.meter_number')}: <strong>{readout.meterNumber}</strong>
      </p>
      <KpiGrid
        count={2}
        tiles={model.rows.map((row) => ({
          key: row[0]!.csv,
          label: row[0]!.text,
          value: row[2]!.text,
          extra: <span className="muted small readout-time">{row[1]!.text}</span>,
        }))}
      />
      <CsvButton
        model={model}
        lang={lang}
        fileParts={['readout', readout.meterNumber]}
        label={t('readout.title')}
      />
    </>
  );
}
