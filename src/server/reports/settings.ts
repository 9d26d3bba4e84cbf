/**
 * Reading and writing a property's report settings (table property_report_settings; the model, validation and
 * defaults are in src/lib/reportSettings.ts). A property without a row reads as the defaults.
 */
import { eq, inArray } from 'drizzle-orm';
import {
  DEFAULT_REPORT_SETTINGS,
  type Fee,
  type FuelShare,
  type LandlordType,
  mergeReportSettings,
  type PropertyReportSettings,
  type SettingsProblem,
} from '../../lib/reportSettings.ts';
import type { Db } from '../db/client.ts';
import { properties, propertyReportSettings } from '../db/schema.ts';

type Row = typeof propertyReportSettings.$inferSelect;

const num = (v: string | null) => (v === null ? null : Number(v));

function fromRow(row: Row): PropertyReportSettings {
  return {
    landlordType: row.landlordType as LandlordType,
    hotWaterShare: Number(row.hotWaterShare),
    hcaKwhPerUnit: num(row.hcaKwhPerUnit),
    fuelMix: row.fuelMix as FuelShare[],
    networkYear: row.networkYear,
    networkCo2Tonnes: num(row.networkCo2Tonnes),
    networkCo2GramPerKwh: num(row.networkCo2GramPerKwh),
    primaryEnergyFactor: num(row.primaryEnergyFactor),
    fees: row.fees as Fee[],
    currency: row.currency,
    disputeBodyName: row.disputeBodyName,
    disputeBodyUrl: row.disputeBodyUrl,
    consumerOrgName: row.consumerOrgName,
    consumerOrgUrl: row.consumerOrgUrl,
  };
}

const str = (v: number | null) => (v === null ? null : String(v));

function toRow(propertyId: number, s: PropertyReportSettings): typeof propertyReportSettings.$inferInsert {
  return {
    propertyId,
    landlordType: s.landlordType,
    hotWaterShare: String(s.hotWaterShare),
    hcaKwhPerUnit: str(s.hcaKwhPerUnit),
    fuelMix: s.fuelMix,
    networkYear: s.networkYear,
    networkCo2Tonnes: str(s.networkCo2Tonnes),
    networkCo2GramPerKwh: str(s.networkCo2GramPerKwh),
    primaryEnergyFactor: str(s.primaryEnergyFactor),
    fees: s.fees,
    currency: s.currency,
    disputeBodyName: s.disputeBodyName,
    disputeBodyUrl: s.disputeBodyUrl,
    consumerOrgName: s.consumerOrgName,
    consumerOrgUrl: s.consumerOrgUrl,
    updatedAt: new Date(),
  };
}

/** The property's settings, or the defaults when it has none stored. */
export async function readReportSettings(db: Db, propertyId: number): Promise<PropertyReportSettings> {
  const [row] = await db
    .select()
    .from(propertyReportSettings)
    .where(eq(propertyReportSettings.propertyId, propertyId));
  return row ? fromRow(row) : { ...DEFAULT_REPORT_SETTINGS };
}

/** Settings of several properties in one statement (defaults for those without a row). */
export async function readReportSettingsOf(
  db: Db,
  propertyIds: readonly number[],
): Promise<Map<number, PropertyReportSettings>> {
  const out = new Map<number, PropertyReportSettings>();
  if (propertyIds.length === 0) return out;
  const rows = await db
    .select()
    .from(propertyReportSettings)
    .where(inArray(propertyReportSettings.propertyId, [...propertyIds]));
  for (const id of propertyIds) out.set(id, { ...DEFAULT_REPORT_SETTINGS });
  for (const row of rows) out.set(row.propertyId, fromRow(row));
  return out;
}

/**
 * Validates `input` (any subset of the settings) over the property's current settings and stores the result.
 * Refused input changes nothing and comes back as problems with field and code; an unknown property is
 * `{ ok: false, notFound: true }`.
 */
export async function saveReportSettings(
  db: Db,
  propertyId: number,
  input: unknown,
): Promise<
  | { ok: true; settings: PropertyReportSettings }
  | { ok: false; problems: SettingsProblem[]; notFound?: false }
  | { ok: false; notFound: true }
> {
  return db.transaction(async (tx) => {
    const [property] = await tx
      .select({ id: properties.id })
      .from(properties)
      .where(eq(properties.id, propertyId));
    if (!property) return { ok: false as const, notFound: true as const };
    const merged = mergeReportSettings(await readReportSettings(tx as unknown as Db, propertyId), input);
    if (!merged.ok) return merged;
    const row = toRow(propertyId, merged.settings);
    await tx
      .insert(propertyReportSettings)
      .values(row)
      .onConflictDoUpdate({ target: propertyReportSettings.propertyId, set: row });
    return merged;
  });
}
