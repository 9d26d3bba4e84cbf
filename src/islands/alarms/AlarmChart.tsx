/** A small bar chart of an alarm's values per period against its limit(s), with the numbers as a table too. */
import type { AlarmPeriodValue } from '../../client/operations/alarmQueries.ts';

type Props = {
  values: AlarmPeriodValue[];
  limits: number[];
  label: string;
  /** Short label of a period for the axis. */
  periodText: (v: AlarmPeriodValue) => string;
  valueText: (v: number | null) => string;
};

/** The chart; bars above a limit are drawn in the alarm colour. */
export function AlarmChart({ values, limits, label, periodText, valueText }: Props) {
  const known = values.map((v) => v.value ?? 0);
  const top = Math.max(1e-9, ...known, ...limits) * 1.1;
  const width = 600;
  const height = 180;
  const bar = width / Math.max(1, values.length);
  const y = (v: number) => height - (v / top) * height;
  const max = limits.length ? Math.max(...limits) : null;
  const min = limits.length > 1 ? Math.min(...limits) : null;
  const outside = (v: number | null) =>
    v !== null && ((max !== null && v > max) || (min !== null && limits.length > 1 && v < min));
  return (
    <figure>
      <svg className="alarm-chart" viewBox={`0 0 ${width} ${height + 4}`} role="img" aria-label={label}>
        {values.map((v, i) => (
          <rect
            key={v.periodStart}
            x={i * bar + bar * 0.15}
            width={bar * 0.7}
            y={v.value === null ? height - 2 : y(v.value)}
            height={v.value === null ? 2 : height - y(v.value)}
            fill={v.value === null ? '#9ca3af' : outside(v.value) ? '#b91c1c' : '#2563eb'}
          />
        ))}
        {limits.map((l) => (
          <line
            key={l}
            x1={0}
            x2={width}
            y1={y(l)}
            y2={y(l)}
            stroke="#111827"
            strokeDasharray="6 4"
            strokeWidth={2}
          />
        ))}
      </svg>
      <figcaption className="visually-hidden">{label}</figcaption>
      <details>
        <summary>{label}</summary>
        <table className="data-table">
          <tbody>
            {values.map((v) => (
              <tr key={v.periodStart}>
                <th scope="row">{periodText(v)}</th>
                <td>{valueText(v.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
