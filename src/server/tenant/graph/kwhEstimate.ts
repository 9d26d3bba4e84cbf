/**
 * tenantGraph's kWh estimate of heat-cost allocator units: one read of the allocator months per property (and
 * unit) the estimate is asked for, whatever the period, and each bucket at its own month's kWh per unit.
 */
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { type AllocatorMonths, readAllocatorMonths } from '../../allocators/months.ts';
import type { Db } from '../../db/client.ts';
import type { BucketPlan } from './buckets.ts';

/** Collects the reads a graph needs (`add` gives each its key), then makes them all at once (`read`). */
export function allocatorReads(db: Db, plan: BucketPlan) {
  const reads = new Map<string, { propertyId: number; apartmentId: number | null; factor: number | null }>();
  return {
    add(propertyId: number, apartmentId: number | null, factor: number | null): string {
      const key = `${propertyId}:${apartmentId}`;
      reads.set(key, { propertyId, apartmentId, factor });
      return key;
    },
    async read(): Promise<Map<string, AllocatorMonths>> {
      return new Map(
        await Promise.all(
          [...reads].map(
            async ([key, r]) =>
              [
                key,
                await readAllocatorMonths(db, {
                  propertyId: r.propertyId,
                  apartmentId: r.apartmentId,
                  from: plan.from.toPlainDate().toString(),
                  to: plan.to.subtract({ nanoseconds: 1 }).toPlainDate().toString(),
                  operatorKwhPerUnit: r.factor,
                }),
              ] as const,
          ),
        ),
      );
    },
  };
}

/**
 * The estimated kWh of each bucket's allocator units, at its own month's kWh per unit (a bucket across months:
 * weighted by the unit's units), and the methods used (comma separated, or 'none').
 */
export function kwhEstimate(
  plan: BucketPlan,
  values: readonly (number | null)[],
  allocators: AllocatorMonths,
): { method: string; values: (number | null)[] } {
  const methods = new Set<string>();
  const estimated = values.map((v, b) => {
    const from = Temporal.Instant.fromEpochMilliseconds(plan.startMs[b]!).toZonedDateTimeISO(TIME_ZONE);
    const end = Temporal.Instant.fromEpochMilliseconds(plan.startMs[b + 1] ?? plan.to.epochMilliseconds)
      .toZonedDateTimeISO(TIME_ZONE)
      .subtract({ nanoseconds: 1 });
    const factor = allocators.factorBetween(
      from.toPlainDate().toString(),
      end.toPlainDate().add({ days: 1 }).toString(),
    );
    if (v === null || factor === null) return null;
    for (const m of factor.methods) methods.add(m);
    return v * factor.kwhPerUnit;
  });
  return { method: methods.size > 0 ? [...methods].join(',') : 'none', values: estimated };
}
