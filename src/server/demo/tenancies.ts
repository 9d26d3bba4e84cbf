/** The demo apartments and their tenancies, one of them vacant (its activation code is the published one). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { apartments, tenancies } from '../db/schema.ts';
import { CITY, type DemoPlan, ZIPCODE } from './model.ts';

/** Database ids by the plan's apartment index, and the id of the tenancy no one has joined. */
export interface SeededTenancies {
  apartmentIds: Map<number, number>;
  tenancyIds: Map<number, number>;
  vacantTenancyId: number;
}

/** Creates an apartment and a tenancy (billed by calendar year) per planned apartment, and the vacant tenancy. */
export async function seedTenancies(
  tx: Db,
  plan: DemoPlan,
  propertyId: number,
  now: Date,
): Promise<SeededTenancies> {
  const year = now.getUTCFullYear();
  const apartmentIds = new Map<number, number>();
  const tenancyIds = new Map<number, number>();
  for (const a of plan.apartments) {
    const [row] = await tx
      .insert(apartments)
      .values({
        propertyId,
        uniqueId: a.uniqueId,
        apartment: a.label,
        address: a.address,
        zipcode: ZIPCODE,
        city: CITY,
        areaM2: String(a.areaM2),
        rooms: a.rooms,
      })
      .returning({ id: apartments.id });
    apartmentIds.set(a.index, row!.id);
    const [t] = await tx
      .insert(tenancies)
      .values({
        apartmentId: row!.id,
        tenancyId: `T-${a.uniqueId}`,
        tenant: a.tenant,
        start: a.tenancyStart,
        billingStart: `${year}-01-01`,
        billingEnd: `${year}-12-31`,
      })
      .returning({ id: tenancies.id });
    tenancyIds.set(a.index, t!.id);
  }

  // The vacant tenancy: the last apartment's, or with only three apartments an incoming tenancy on the third.
  const last = plan.apartments.length;
  let vacantTenancyId: number;
  if (last >= 4) vacantTenancyId = tenancyIds.get(last)!;
  else {
    const nextMonth = new Date(Date.UTC(year, now.getUTCMonth() + 1, 1));
    const endOfMonth = new Date(nextMonth.getTime() - 86_400_000).toISOString().slice(0, 10);
    await tx
      .update(tenancies)
      .set({ end: endOfMonth })
      .where(eq(tenancies.id, tenancyIds.get(last)!));
    const [t] = await tx
      .insert(tenancies)
      .values({
        apartmentId: apartmentIds.get(last)!,
        tenancyId: `T-${plan.apartments[last - 1]!.uniqueId}-2`,
        tenant: '',
        start: nextMonth.toISOString().slice(0, 10),
        billingStart: `${year}-01-01`,
        billingEnd: `${year}-12-31`,
      })
      .returning({ id: tenancies.id });
    vacantTenancyId = t!.id;
  }
  return { apartmentIds, tenancyIds, vacantTenancyId };
}
