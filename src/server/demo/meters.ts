/** The demo measurement points and their meters, swaps included. */
import type { Db } from '../db/client.ts';
import { measurementPoints, meters } from '../db/schema.ts';
import type { DemoPlan } from './model.ts';

/** Rows per INSERT of points and meters: far below PostgreSQL's 65,534 parameters per statement. */
const ROWS_PER_INSERT = 1_000;

/** Creates a measurement point per planned stream, and its meters; `apartmentIds` by the plan's apartment index. */
export async function seedMeters(
  tx: Db,
  plan: DemoPlan,
  propertyId: number,
  apartmentIds: Map<number, number>,
): Promise<void> {
  // In slices: one statement for every point of a large property ran past PostgreSQL's limit of 65,534
  // parameters per statement (8 per point: above 744 apartments).
  const pointRows: { id: number }[] = [];
  for (let i = 0; i < plan.streams.length; i += ROWS_PER_INSERT) {
    const slice = plan.streams.slice(i, i + ROWS_PER_INSERT);
    pointRows.push(
      ...(await tx
        .insert(measurementPoints)
        .values(
          slice.map((s) => ({
            propertyId,
            apartmentId: s.apartment === null ? null : apartmentIds.get(s.apartment)!,
            quantity: s.quantity,
            unit: s.unit,
            room: s.room,
            name: s.name,
            legacyMeterId: s.meters[0]!.number,
            readingKind: s.readingKind,
          })),
        )
        .returning({ id: measurementPoints.id })),
    );
  }
  const meterRows = plan.streams.flatMap((s, i) =>
    s.meters.map((m) => ({
      measurementPointId: pointRows[i]!.id,
      number: m.number,
      legacyKind: s.legacyKind,
      installedAt: new Date(m.installedMs),
      removedAt: m.removedMs === null ? null : new Date(m.removedMs),
    })),
  );
  for (let i = 0; i < meterRows.length; i += ROWS_PER_INSERT)
    await tx.insert(meters).values(meterRows.slice(i, i + ROWS_PER_INSERT));
}
