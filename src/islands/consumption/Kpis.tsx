/** KPI tiles and the comparison smiley. */
import { useTranslation } from 'react-i18next';
import type { Face } from '../../lib/quantities.ts';
import { comparisonBand, comparisonFace } from '../../lib/ratings.ts';

// Mouth paths of the three faces; drawn as SVG so they look the same without an emoji font.
const MOUTH: Record<Face, string> = {
  smile: 'M7.5 14.5c1.2 1.6 2.7 2.4 4.5 2.4s3.3-.8 4.5-2.4',
  neutral: 'M8 15.5h8',
  sad: 'M7.5 17c1.2-1.6 2.7-2.4 4.5-2.4s3.3.8 4.5 2.4',
};

/** A satisfaction face with its word for screen readers (SPEC §3 faces). */
export function FaceIcon({ face, label }: { face: Face; label: string }) {
  return (
    <svg
      className={`face face-${face}`}
      role="img"
      aria-label={label}
      viewBox="0 0 24 24"
      width="26"
      height="26"
    >
      <title>{label}</title>
      <circle cx="12" cy="12" r="10.5" fill="currentColor" opacity="0.15" />
      <circle cx="12" cy="12" r="10.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <circle cx="8.5" cy="9.5" r="1.3" fill="currentColor" />
      <circle cx="15.5" cy="9.5" r="1.3" fill="currentColor" />
      <path d={MOUTH[face]} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
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
