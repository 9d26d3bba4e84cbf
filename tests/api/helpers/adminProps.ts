/**
 * The console's properties and meters in the API tests (issue 21): the operations both test files call, an upload
 * in CSV, and the role matrix's fixture plus a heat point and meter on P1's flat with two readings.
 */
import { eq } from 'drizzle-orm';
import { apartments, meters, registerReadings } from '../../../src/server/db/schema.ts';
import { type AdminMatrix, setUpAdminMatrix } from './adminMatrix.ts';
import { heatPoint } from './property.ts';

export const DETAIL = `query ($id: ID!) { propertyDetail(id: $id) { property { number } apartments { uniqueId areaM2 rooms
  points { name room meters { number } } } } }`;
export const IMPORT = `mutation ($f: PropertyFileFormat!, $c: String!) { importPropertyFile(format: $f, content: $c) {
  propertyId apartments measurementPoints meters tenancies } }`;

/** A property file in CSV: one flat with a heat point, a meter and a tenancy. */
export const csv = (number: string, unit: string, meter: string) => `# an upload through the console
property,ignored,${number},Fjordhuset,Fjordvej 2,8000,Aarhus C
apartment,${unit},st. tv,"Fjordvej 2, st. tv",8000,Aarhus C,72.5,3
point,${unit},heat-energy,Heat
meter,${unit},Heat,${meter},2024-01-01T00:00:00Z
tenancy,${unit},T-${unit},Jens Hansen,2025-04-01
`;

/** P1's flat U-P1-1, its heat point and its meter M-P1-HEAT. */
export interface PropsIds {
  apartment: number;
  point: number;
  meter: number;
}

/**
 * The role matrix's fixture plus a heat point on P1's flat with meter M-P1-HEAT (installed 2024-01-01) and its
 * readings 100 (2025-01-01) and 250.5 (2025-02-01).
 */
export async function setUpProps(): Promise<{ m: AdminMatrix; ids: PropsIds }> {
  const m = await setUpAdminMatrix();
  const db = m.database.db;
  const [flat] = await db.select().from(apartments).where(eq(apartments.uniqueId, 'U-P1-1'));
  const point = await heatPoint(db, { propertyId: m.fx.p1, apartmentId: flat!.id });
  const [meter] = await db
    .insert(meters)
    .values({
      measurementPointId: point,
      number: 'M-P1-HEAT',
      legacyKind: 'energy',
      installedAt: new Date('2024-01-01T00:00:00Z'),
    })
    .returning();
  await db.insert(registerReadings).values([
    { meterId: meter!.id, ts: new Date('2025-01-01T00:00:00Z'), value: '100' },
    { meterId: meter!.id, ts: new Date('2025-02-01T00:00:00Z'), value: '250.5' },
  ]);
  return { m, ids: { apartment: flat!.id, point, meter: meter!.id } };
}
