/**
 * `tenantGraph`: values per Europe/Copenhagen bucket for units (all their points of a quantity combined,
 * summed or averaged per the quantity) and measurement points, clipped to the caller's tenancy.
 * HOURLY_VALUES is consumption, COST multiplies by the day's price, CO2 by the property's factor (grams).
 */
import { and, inArray } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { GRAPH_TYPES, isQuantityId, QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import { measurementPoints, propertyCo2Factors } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { badInput, forbidden, parseInput } from '../../graphql/errors.ts';
import { clipToTenancies, unitAccess } from '../access.ts';
import { localMinute, MAX_BUCKETS, planBuckets, TooManyBucketsError } from '../graph/buckets.ts';
import { type SeriesQuery, seriesValues } from '../graph/series.ts';
import { currentMeters, pointObject, unitObject } from '../objects.ts';
import type { Consumption, GraphSeries, QueryResolvers } from '../types.generated.ts';

const localMinuteText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local time YYYY-MM-DDTHH:mm')
  .refine((text) => {
    try {
      const t = Temporal.PlainDateTime.from(text, { overflow: 'reject' });
      return t.year >= 2000 && t.year <= 2100;
    } catch {
      return false;
    }
  }, 'must be a real date and time between the years 2000 and 2100');

const dbId = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a numeric id')
  .transform(Number);

const inputSchema = z
  .object({
    graphType: z.enum(GRAPH_TYPES),
    resolution: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
    periodBegin: localMinuteText,
    periodEnd: localMinuteText,
    objects: z
      .array(
        z.object({
          kind: z.enum(['UNIT', 'MPOINT'], { message: 'only UNIT and MPOINT objects are supported' }),
          id: dbId,
        }),
      )
      .min(1)
      .max(20),
    quantities: z
      .array(
        z
          .string()
          .refine(isQuantityId, { error: (issue) => `unknown quantity ${JSON.stringify(issue.input)}` }),
      )
      .min(1)
      .max(10),
    normalized: z.boolean().nullish(),
  })
  .refine((g) => g.periodBegin < g.periodEnd, {
    message: 'periodBegin must be before periodEnd',
    path: ['periodEnd'],
  });

export const tenantGraph: NonNullable<QueryResolvers['tenantGraph']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args.graph);
  const quantities = input.quantities as QuantityId[];
  if (input.graphType !== 'HOURLY_VALUES') {
    const averaged = quantities.find((q) => QUANTITIES[q].aggregation === 'avg');
    if (averaged)
      throw badInput(`${input.graphType} is only defined for consumption quantities, not ${averaged}`);
  }
  let plan: ReturnType<typeof planBuckets>;
  try {
    plan = planBuckets(input.resolution, localMinute(input.periodBegin), localMinute(input.periodEnd));
  } catch (err) {
    if (!(err instanceof TooManyBucketsError)) throw err;
    throw badInput(
      `Range too large for ${input.resolution} resolution: at most ${MAX_BUCKETS[input.resolution]} buckets`,
    );
  }

  const db = ctx.db;
  const pointIds = input.objects.filter((o) => o.kind === 'MPOINT').map((o) => o.id);
  const askedPoints = pointIds.length
    ? await db.select().from(measurementPoints).where(inArray(measurementPoints.id, pointIds))
    : [];
  const pointById = new Map(askedPoints.map((p) => [p.id, p]));
  const apartmentIds: number[] = [];
  for (const o of input.objects) {
    if (o.kind === 'UNIT') apartmentIds.push(o.id);
    else {
      const apartmentId = pointById.get(o.id)?.apartmentId;
      if (apartmentId == null) throw forbidden();
      apartmentIds.push(apartmentId);
    }
  }
  // Access first: nothing else is read for an object the caller may not see.
  const access = await unitAccess(db, userId, apartmentIds);
  const unitIds = input.objects.filter((o) => o.kind === 'UNIT').map((o) => o.id);
  const unitPoints = unitIds.length
    ? await db
        .select({
          id: measurementPoints.id,
          apartmentId: measurementPoints.apartmentId,
          quantity: measurementPoints.quantity,
        })
        .from(measurementPoints)
        .where(
          and(
            inArray(measurementPoints.apartmentId, unitIds),
            inArray(measurementPoints.quantity, quantities),
          ),
        )
    : [];
  const meterByPoint = await currentMeters(db, pointIds);
  const propertyIds = [...new Set([...access.values()].map((a) => a.property.id))];
  const co2 =
    input.graphType === 'CO2'
      ? await db.select().from(propertyCo2Factors).where(inArray(propertyCo2Factors.propertyId, propertyIds))
      : [];

  // One series per object × quantity, all read by one query.
  const series = input.objects.flatMap((o, i) => {
    const apartmentId = apartmentIds[i]!;
    const unit = access.get(apartmentId)!;
    const point = o.kind === 'MPOINT' ? pointById.get(o.id)! : null;
    const windows = clipToTenancies(plan, unit);
    return quantities.map((quantity) => {
      const pointIds = point
        ? point.quantity === quantity
          ? [point.id]
          : []
        : unitPoints.filter((p) => p.apartmentId === apartmentId && p.quantity === quantity).map((p) => p.id);
      const query: SeriesQuery = {
        plan,
        pointIds,
        aggregation: QUANTITIES[quantity].aggregation,
        windows,
        ...(input.graphType === 'COST' ? { price: { propertyId: unit.property.id, quantity } } : {}),
      };
      return query;
    });
  });
  const raws = await seriesValues(db, series);

  const graphs: GraphSeries[] = input.objects.map((o, i): GraphSeries => {
    const { apartment, property, tenant } = access.get(apartmentIds[i]!)!;
    const point = o.kind === 'MPOINT' ? pointById.get(o.id)! : null;
    const consumption = quantities.map((quantity, j): Consumption => {
      const info = QUANTITIES[quantity];
      const raw = raws[i * quantities.length + j]!;
      const normalized = Boolean(input.normalized) && info.normalizable;
      const area = Number(apartment.areaM2);
      const factorRow = co2.find((f) => f.propertyId === property.id && f.quantity === quantity);
      const factor =
        input.graphType === 'CO2' ? (factorRow ? Number(factorRow.gramPerQuantityUnit) : null) : 1;
      const values = raw.map((v) => {
        if (v === null || factor === null) return null;
        const scaled = v * factor;
        return normalized ? scaled / area : scaled;
      });
      return {
        quantityDescriptor: { quantity, normalized, expressedAs: input.graphType === 'CO2' ? 'co2' : null },
        values,
        relatedValues: [],
      };
    });
    const object = point
      ? pointObject(point, apartment, property, tenant, meterByPoint.get(point.id))
      : unitObject(apartment, property, tenant);
    return { type: input.graphType, object, consumption };
  });
  return { timestamps: plan.labels, graphs };
};
