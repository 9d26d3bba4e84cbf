/**
 * Per-deployment report settings, parsed once with zod:
 *   REPORT_TTL_DAYS   how long a report link works after it is generated (default 400 days)
 * The energy-advice and complaint texts are Markdown: src/content/report-texts/<lang>.md.
 */
import { z } from 'zod';
import { FUEL_SOURCES, type FuelShare, isFuelSource } from '../../lib/reportSettings.ts';

/** The demo supply: a Danish district-heating mix, seeded into the demo property's report settings. */
export const DEMO_FUEL_MIX = 'biomass=54,waste=21,surplus-heat=9,natural-gas=8,coal=4,other=4';

/** Parses "source=percent,…"; the shares must be known sources summing to 100 (± 0.5). */
export function parseFuelMix(raw: string): FuelShare[] {
  const shares = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [source, percent] = part.split('=').map((s) => s.trim());
      if (!isFuelSource(source))
        throw new Error(`unknown fuel source "${source}" (use ${FUEL_SOURCES.join(', ')})`);
      const n = Number(percent);
      if (!Number.isFinite(n) || n < 0 || n > 100) throw new Error(`"${part}": the share must be 0–100`);
      return { source, percent: n };
    });
  const total = shares.reduce((s, x) => s + x.percent, 0);
  if (Math.abs(total - 100) > 0.5) throw new Error(`the shares add up to ${total}, not 100`);
  return shares;
}

const schema = z.object({
  REPORT_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
});

export type ReportSettings = { ttlDays: number };

/** Reads the report settings; throws one message listing every bad variable. */
export function reportSettings(env: Record<string, string | undefined> = process.env): ReportSettings {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid report configuration:\n${lines.join('\n')}`);
  }
  return { ttlDays: result.data.REPORT_TTL_DAYS };
}
