/**
 * Creates the monthly partitions of register_readings and hourly_consumption ahead of time (migration 0013): the
 * current UTC month and the next PARTITION_MONTHS_AHEAD. The database function `ensure_monthly_partitions` creates
 * each missing month and moves any rows the default partition holds for it into the new one, so a month that
 * was missed (a worker down for months, readings from far back or ahead) is still partitioned once it is created;
 * until then its rows sit in the default partition and nothing is refused. Each run also gives every month that
 * has rows in the default partition its partition (but register_readings' months older than the retention horizon,
 * whose partitions retention dropped). Queued once a day by the schedule.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../db/sql.ts';
import { RETENTION_HORIZON_KEY } from '../../ingest/retention.ts';
import { defineTask } from '../task.ts';

/** Months after the current one that get their partition ahead of time. */
const PARTITION_MONTHS_AHEAD = 3;

/** The partitioned tables. */
const PARTITIONED_TABLES = ['register_readings', 'hourly_consumption'] as const;

export const partitionsTask = defineTask({
  name: 'partitions',
  payload: z.object({
    /** The UTC day the run is for (one run a day). */
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    monthsAhead: z.number().int().min(1).max(24).default(PARTITION_MONTHS_AHEAD),
  }),
  key: (p) => ({ subject: 'partitions', period: p.day }),
  async run({ tx, logger }, { day, monthsAhead }) {
    const created: Record<string, number> = {};
    for (const table of PARTITIONED_TABLES) {
      const [row] = await queryRows<{ made: number }>(
        tx,
        sql`SELECT ensure_monthly_partitions(${table}, ${day}::date,
                   (${day}::date + make_interval(months => ${monthsAhead}::int))::date) AS made`,
      );
      let made = Number(row?.made ?? 0);
      // Rows of months without a partition (older than the migration made, or far ahead) sit in the default
      // partition: each such month gets its partition, and its rows move there.
      // Not the months of register_readings older than the retention horizon: retention dropped their partitions
      // and keeps each meter's newest reading of them in the default partition (ingest/retention.ts).
      const key = table === 'register_readings' ? sql.raw('ts') : sql.raw('hour_start');
      const since =
        table === 'register_readings'
          ? sql`WHERE ts >= COALESCE((SELECT value::timestamptz FROM app_meta WHERE key = ${RETENTION_HORIZON_KEY}),
                                     '-infinity')`
          : sql``;
      const months = await queryRows<{ month: string }>(
        tx,
        sql`SELECT DISTINCT to_char(date_trunc('month', ${key} AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month
            FROM ${sql.raw(`${table}_default`)} ${since} ORDER BY 1`,
      );
      for (const { month } of months) {
        const [moved] = await queryRows<{ made: number }>(
          tx,
          sql`SELECT ensure_monthly_partitions(${table}, ${month}::date, ${month}::date) AS made`,
        );
        made += Number(moved?.made ?? 0);
      }
      created[table] = made;
    }
    logger.info({ created, day, monthsAhead }, 'monthly partitions ensured');
  },
});
