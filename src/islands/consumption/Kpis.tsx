/** KPI tiles and the comparison smiley. */
import { useTranslation } from 'react-i18next';
import type { Face } from '../../lib/quantities.ts';
import { comparisonBand, comparisonFace } from '../../lib/ratings.ts';

const FACE_GLYPH: Record<Face, string> = { smile: '🙂', neutral: '😐', sad: '🙁' };

/** A satisfaction face with its word for screen readers (SPEC §3 faces). */
export function FaceIcon({ face, label }: { face: Face; label: string }) {
  return (
    <span className={`face face-${face}`} role="img" aria-label={label} title={label}>
      {FACE_GLYPH[face]}
    </span>
  );
}

/** The comparison smiley of a value against a reference (SPEC §1 bands); nothing when it cannot be compared. */
export function ComparisonSmiley({ value, reference }: { value: number | null; reference: number | null }) {
  const { t } = useTranslation('domain');
  if (value === null || reference === null) return null;
  const band = comparisonBand(value, reference);
  if (!band) return null;
  return <FaceIcon face={comparisonFace(band)} label={t(`comparison.${band}`)} />;
}

/** One KPI tile. */
export type KpiTile = { key: string; label: string; value: string; extra?: React.ReactNode; testId?: string };

/** A grid of KPI tiles; a fixed number of tiles renders as placeholders while loading, so nothing shifts. */
export function KpiGrid({
  tiles,
  loading = false,
  count = 4,
}: {
  tiles: KpiTile[];
  loading?: boolean;
  count?: number;
}) {
  if (loading) {
    return (
      <dl className="kpi-grid" aria-busy="true">
        {Array.from({ length: count }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <div key={i} className="kpi-tile placeholder">
            <dt>&nbsp;</dt>
            <dd>&nbsp;</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <dl className="kpi-grid">
      {tiles.map((tile) => (
        <div key={tile.key} className="kpi-tile" data-testid={tile.testId}>
          <dt>{tile.label}</dt>
          <dd>
            <span className="kpi-number">{tile.value}</span>
            {tile.extra}
          </dd>
        </div>
      ))}
    </dl>
  );
}
