/**
 * The caller's tenancies with everything the unit list and the dashboard need, in one statement: the token check
 * (the caller's user row), each open tenancy's id, apartment, property and figure settings (as access.ts's
 * accessQuery), and per property its settings kinds and CO₂ factors. `tenantUnits` and `tenancyDashboard` read
 * the caller through it instead of the three to five statements they ran before.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { properties, propertyCo2Factors, propertySettings, tenancies } from '../db/schema.ts';
import { requireValidToken, type TokenClaim, type TokenUser } from '../graphql/context.ts';
import { type AccessRow, accessFromRows, prepareCallerRows, type UnitAccess } from './access.ts';

/** A CO₂ factor period of a property, as property_co2_factors holds it. */
export interface Co2FactorRow {
  quantity: string;
  gramPerQuantityUnit: number;
  validFrom: string | null;
  validTo: string | null;
}

/** What the unit list shows of a property besides its row. */
interface PropertyExtras {
  settingKinds: string[];
  co2Factors: Co2FactorRow[];
}

export interface CallerTenancies {
  /** The caller's units by apartment id, with their merged tenancy windows (access.ts accessFromRows). */
  units: Map<number, UnitAccess>;
  /** The apartment of each of the caller's open tenancies, by tenancy id. */
  apartmentOfTenancy: Map<number, number>;
  /** By property id, for every property of `units`. */
  properties: Map<number, PropertyExtras>;
}

const queries = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  const ps = propertySettings;
  const f = propertyCo2Factors;
  const kinds = sql<string[] | string | null>`(SELECT json_agg(${ps.kind} ORDER BY ${ps.kind})
    FROM ${ps} WHERE ${ps.propertyId} = ${properties.id})`;
  const factors = sql<
    Co2FactorRow[] | string | null
  >`(SELECT json_agg(json_build_object('quantity', ${f.quantity},
      'gramPerQuantityUnit', ${f.gramPerQuantityUnit}, 'validFrom', ${f.validFrom}, 'validTo', ${f.validTo})
      ORDER BY ${f.id})
    FROM ${f} WHERE ${f.propertyId} = ${properties.id})`;
  return prepareCallerRows(db, 'caller_tenancies', { tenancyId: tenancies.id, kinds, factors });
}

const parsed = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * The caller's tenancies (see above). With a `claim` (tokenToCheck), the statement also checks the token: it
 * throws, as requireUserId would, before anything it read is used.
 */
export async function callerTenancies(
  db: Db,
  caller: { userId: number; claim: TokenClaim | null },
): Promise<CallerTenancies> {
  let prepared = queries.get(db);
  if (!prepared) {
    prepared = prepare(db);
    queries.set(db, prepared);
  }
  const rows = await prepared.execute({ userId: caller.userId });
  // No row: no such user. Every row carries the user's columns.
  const user: TokenUser | undefined = rows[0];
  requireValidToken(user, caller.claim);
  const tenancyRows: AccessRow[] = [];
  const apartmentOfTenancy = new Map<number, number>();
  const extras = new Map<number, PropertyExtras>();
  for (const row of rows) {
    // The user's row alone (no open tenancy) has no apartment; the joins' foreign keys give every other row all parts.
    if (!row.apartment || !row.property || row.start === null || row.tenancyId === null) continue;
    apartmentOfTenancy.set(row.tenancyId, row.apartment.id);
    if (!extras.has(row.property.id)) {
      const factors = parsed(row.factors) ?? [];
      extras.set(row.property.id, {
        settingKinds: parsed(row.kinds) ?? [],
        co2Factors: factors.map((x) => ({ ...x, gramPerQuantityUnit: Number(x.gramPerQuantityUnit) })),
      });
    }
    tenancyRows.push({
      apartment: row.apartment,
      property: row.property,
      tenant: row.tenant!,
      start: row.start,
      end: row.end,
      settings: row.settings,
    });
  }
  return { units: accessFromRows(tenancyRows), apartmentOfTenancy, properties: extras };
}
