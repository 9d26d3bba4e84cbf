/**
 * `unitQuantityKpis`: per quantity, the unit's total for a date period, the previous period, the same dates a year
 * earlier, the property's per-m² average scaled to the unit, per room and per meter; optionally climate-corrected
 * (heat) and as a kWh estimate (hca). All totals come from one SQL statement that reads the coarsest rollups
 * (the figures: consumption/kpis.ts).
 */
import { readAllocatorMonths } from '../../allocators/months.ts';
import { readDbOf, requireUserId } from '../../graphql/context.ts';
import { kpiInput, planKpis } from '../consumption/kpis.ts';
import { loadUnit, seriesCollector } from '../consumption/unitData.ts';
import { seriesTotalsAndValues } from '../graph/series.ts';
import { currentMeters } from '../objects.ts';
import type { QueryResolvers } from '../types.generated.ts';

export const unitQuantityKpis: NonNullable<QueryResolvers['unitQuantityKpis']> = async (
  _parent,
  args,
  ctx,
) => {
  const userId = requireUserId(ctx);
  const input = kpiInput(args.input);
  // The caller and their access from the primary (`ctx.db`); the data from the read replica when set and fresh.
  const reads = readDbOf(ctx);
  const { access, points } = await loadUnit(ctx.db, userId, input.unitId, input.quantities);
  const meters = await currentMeters(
    reads,
    points.map((p) => p.id),
  );
  const collector = seriesCollector();
  const finish = planKpis(input, access, points, collector);
  const { period } = input;
  const allocators = input.wantsEstimate
    ? await readAllocatorMonths(reads, {
        propertyId: access.property.id,
        apartmentId: access.apartment.id,
        from: period.from.toPlainDate().toString(),
        to: period.to.subtract({ nanoseconds: 1 }).toPlainDate().toString(),
        operatorKwhPerUnit: access.settings.hcaKwhPerUnit,
      })
    : null;
  return finish(await seriesTotalsAndValues(reads, collector.queries), meters, allocators);
};
