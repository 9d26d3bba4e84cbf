/** The console's property and meter pages (issue 21): detail, upload, the forms' edits, and meter swaps. */
import { actorOf } from '../audit.ts';
import { meterView, swapMeter as swap, updateMeterSettings as updateSettings } from '../meters.ts';
import {
  propertyDetail as detail,
  updateApartment as editApartment,
  importPropertyFile as importFile,
  type meterSummary,
  updatePoint,
} from '../properties.ts';
import {
  createApartment as addApartment,
  createMeter as addMeter,
  createMeasurementPoint as addPoint,
} from '../propertyCreate.ts';
import { requireOperator } from '../scope.ts';
import type {
  MutationResolvers,
  PropertyApartment,
  PropertyMeter,
  PropertyPoint,
  QueryResolvers,
} from '../types.generated.ts';

type Meter = ReturnType<typeof meterSummary>;
type Point = Omit<PropertyPoint, 'id' | 'meters'> & { id: number; meters: Meter[] };
const meterToApi = (m: Meter): PropertyMeter => ({ ...m, id: String(m.id) });
const pointToApi = (p: Point): PropertyPoint => ({
  quantity: p.quantity,
  unit: p.unit,
  name: p.name,
  room: p.room,
  id: String(p.id),
  meters: p.meters.map(meterToApi),
});
const apartmentToApi = (
  a: Omit<PropertyApartment, 'id' | 'points'> & { id: number },
  points: PropertyPoint[],
): PropertyApartment => ({
  uniqueId: a.uniqueId,
  apartment: a.apartment,
  address: a.address,
  zipcode: a.zipcode,
  city: a.city,
  rooms: a.rooms,
  id: String(a.id),
  areaM2: String(Number(a.areaM2)),
  points,
});
const meterViewToApi = (m: Awaited<ReturnType<typeof meterView>>) => ({
  ...m,
  id: String(m.id),
  propertyId: String(m.propertyId),
  history: m.history.map(meterToApi),
});

export const propertyDetail: NonNullable<QueryResolvers['propertyDetail']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const d = await detail(ctx.db, scope, args.id);
  return {
    property: { ...d.property, id: String(d.property.id) },
    apartments: d.apartments.map((a) => apartmentToApi(a, a.points.map(pointToApi))),
    points: d.points.map(pointToApi),
  };
};

export const adminMeter: NonNullable<QueryResolvers['adminMeter']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return meterViewToApi(await meterView(ctx.db, scope, args.id));
};

export const importPropertyFile: NonNullable<MutationResolvers['importPropertyFile']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  const r = await importFile(ctx.db, scope, actorOf(scope), args.format, args.content);
  return { ...r, propertyId: String(r.propertyId) };
};

export const updateApartment: NonNullable<MutationResolvers['updateApartment']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  const a = await editApartment(ctx.db, scope, actorOf(scope), input);
  return apartmentToApi(a, a.points.map(pointToApi));
};

export const updateMeasurementPoint: NonNullable<MutationResolvers['updateMeasurementPoint']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  return pointToApi(await updatePoint(ctx.db, scope, actorOf(scope), input));
};

export const updateMeterSettings: NonNullable<MutationResolvers['updateMeterSettings']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  return meterViewToApi(await updateSettings(ctx.db, scope, actorOf(scope), input));
};

export const swapMeter: NonNullable<MutationResolvers['swapMeter']> = async (_p, { input }, ctx) => {
  const scope = await requireOperator(ctx);
  return meterViewToApi(await swap(ctx.db, scope, actorOf(scope), input));
};

export const createApartment: NonNullable<MutationResolvers['createApartment']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  const a = await addApartment(ctx.db, scope, actorOf(scope), input);
  return apartmentToApi(a, []);
};

export const createMeasurementPoint: NonNullable<MutationResolvers['createMeasurementPoint']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  return pointToApi(await addPoint(ctx.db, scope, actorOf(scope), input));
};

export const createMeter: NonNullable<MutationResolvers['createMeter']> = async (_p, { input }, ctx) => {
  const scope = await requireOperator(ctx);
  return meterToApi(await addMeter(ctx.db, scope, actorOf(scope), input));
};
