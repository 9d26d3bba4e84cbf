/** tenantGraph's input, checked with zod: the period as local minutes, the objects, quantities and related series. */
import { z } from 'zod';
import { GRAPH_TYPES } from '../../../lib/quantities.ts';
import { climateInput, dbId, quantityId } from '../consumption/common.ts';
import { localMinute } from './buckets.ts';

const localMinuteText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local time YYYY-MM-DDTHH:mm')
  .refine((text) => {
    try {
      // The zone's DST shift moves a skipped time by an hour, never across a new year.
      const t = localMinute(text);
      return t.year >= 2000 && t.year <= 2100;
    } catch {
      return false;
    }
  }, 'must be a real date and time between the years 2000 and 2100');

const RELATED = ['PROPERTY', 'LAST_PERIOD', 'LAST_YEAR'] as const;

export const graphInputSchema = z
  .object({
    graphType: z.enum(GRAPH_TYPES),
    resolution: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
    periodBegin: localMinuteText,
    periodEnd: localMinuteText,
    objects: z
      .array(
        z.object({
          kind: z.enum(['UNIT', 'MPOINT', 'PROPERTY', 'SOURCE']),
          id: dbId,
          scaleToUnitId: dbId.nullish(),
        }),
      )
      .min(1)
      .max(20),
    quantities: z.array(quantityId).min(1).max(10),
    normalized: z.boolean().nullish(),
    related: z.array(z.enum(RELATED)).max(3).nullish(),
    climateCorrection: climateInput,
    hcaKwhEstimate: z.boolean().nullish(),
  })
  .refine((g) => g.periodBegin < g.periodEnd, {
    message: 'periodBegin must be before periodEnd',
    path: ['periodEnd'],
  })
  .refine((g) => g.objects.every((o) => o.scaleToUnitId == null || o.kind === 'PROPERTY'), {
    message: 'scaleToUnitId is only for PROPERTY objects',
    path: ['objects'],
  });
