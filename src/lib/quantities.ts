/** Every quantity identifier of SPEC §3. */
export const QUANTITY_IDS = [
  'heat-energy',
  'heat-volume',
  'hca',
  'hot-water-volume',
  'cold-water-volume',
  'electricity-energy',
  'cooling-energy',
  'gas-volume',
  'total-water-volume',
  'heat-flow-temperature',
  'heat-return-temperature',
  'indoor-temperature',
  'indoor-relative-humidity',
  'electricity-frequency',
  'hot-water-flow',
  'gas-pressure',
  'outdoor-temperature',
  'heat-cooling',
  'hot-water-backflow',
  'cold-water-backflow',
  'error',
] as const;

/** A quantity identifier of SPEC §3, e.g. 'heat-energy'. */
export type QuantityId = (typeof QUANTITY_IDS)[number];

/**
 * Unit ids: the six of SPEC §3, plus three for quantities SPEC lists without a unit
 * (frequency, flow, pressure) and 'count' for the error counter.
 */
export type UnitId =
  | 'degree-celsius'
  | 'degree-kelvin'
  | 'cubic-meter'
  | 'kilo-watt-hour'
  | 'hca-unit'
  | 'percent'
  | 'hertz'
  | 'cubic-meter-per-hour'
  | 'bar'
  | 'count';

/** How values combine over time and over meters: added up, or averaged. */
export type Aggregation = 'sum' | 'avg';

/** Fraction digits for display (SPEC §9). */
export interface Decimals {
  min: number;
  max: number;
}

/** One entry of the quantity catalogue. */
export interface QuantityInfo {
  id: QuantityId;
  unit: UnitId;
  aggregation: Aggregation;
  decimals: Decimals;
  /** Whether a per-m² form exists (consumption quantities only; a temperature per m² means nothing). */
  normalizable: boolean;
  /** Decimals of the per-m² form. */
  normalizedDecimals: Decimals;
  /** i18n key in the domain namespace. */
  labelKey: `quantities.${QuantityId}`;
}

const DEFAULT: Decimals = { min: 0, max: 2 };
const WATER: Decimals = { min: 3, max: 3 };
// "At least 2": Intl's own maximum for a minimum of 2 is 3, so up to 3 digits show.
const AT_LEAST_TWO: Decimals = { min: 2, max: 3 };
const WHOLE: Decimals = { min: 0, max: 0 };
const TWO: Decimals = { min: 2, max: 2 };

type Entry = [UnitId, Aggregation, Decimals, boolean, Decimals?];

// Aggregation: SPEC §3 names the water volumes and gas (sum) and humidity, indoor temperature, cooling energy,
// flow and return temperature (avg). Our choices for the rest: every register (meter-total) quantity is a sum
// (heat energy, heat volume, hca, electricity, backflows, error counts); every instantaneous reading is an
// average (frequency, flow, pressure, outdoor temperature, and heat-cooling). heat-cooling is the district-heating
// "afkøling", flow minus return temperature: a temperature difference, so it is the one quantity in kelvin (the
// unit SPEC §3 lists that nothing else uses), averaged, and not per m². See docs/domain.md.
const TABLE: Record<QuantityId, Entry> = {
  'heat-energy': ['kilo-watt-hour', 'sum', WHOLE, true],
  'heat-volume': ['cubic-meter', 'sum', WATER, true],
  hca: ['hca-unit', 'sum', WHOLE, true, TWO],
  'hot-water-volume': ['cubic-meter', 'sum', WATER, true],
  'cold-water-volume': ['cubic-meter', 'sum', WATER, true],
  'electricity-energy': ['kilo-watt-hour', 'sum', AT_LEAST_TWO, true],
  'cooling-energy': ['kilo-watt-hour', 'avg', AT_LEAST_TWO, true],
  'gas-volume': ['cubic-meter', 'sum', AT_LEAST_TWO, true],
  'total-water-volume': ['cubic-meter', 'sum', WATER, true],
  'heat-flow-temperature': ['degree-celsius', 'avg', WHOLE, false],
  'heat-return-temperature': ['degree-celsius', 'avg', WHOLE, false],
  'indoor-temperature': ['degree-celsius', 'avg', WHOLE, false],
  'indoor-relative-humidity': ['percent', 'avg', WHOLE, false],
  'electricity-frequency': ['hertz', 'avg', DEFAULT, false],
  'hot-water-flow': ['cubic-meter-per-hour', 'avg', WATER, false],
  'gas-pressure': ['bar', 'avg', DEFAULT, false],
  'outdoor-temperature': ['degree-celsius', 'avg', WHOLE, false],
  'heat-cooling': ['degree-kelvin', 'avg', WHOLE, false],
  'hot-water-backflow': ['cubic-meter', 'sum', WATER, false],
  'cold-water-backflow': ['cubic-meter', 'sum', WATER, false],
  error: ['count', 'sum', WHOLE, false],
};

/** The quantity catalogue, keyed by id. */
export const QUANTITIES: Readonly<Record<QuantityId, QuantityInfo>> = Object.fromEntries(
  QUANTITY_IDS.map((id) => {
    const [unit, aggregation, decimals, normalizable, normalizedDecimals] = TABLE[id];
    const info: QuantityInfo = {
      id,
      unit,
      aggregation,
      decimals,
      normalizable,
      normalizedDecimals: normalizedDecimals ?? decimals,
      labelKey: `quantities.${id}`,
    };
    return [id, info];
  }),
) as Record<QuantityId, QuantityInfo>;

const IDS = new Set<string>(QUANTITY_IDS);

/** True when x is one of the quantity identifiers of SPEC §3. */
export function isQuantityId(x: unknown): x is QuantityId {
  return typeof x === 'string' && IDS.has(x);
}

/** Thrown for a quantity identifier the catalogue does not know, naming it. */
export class UnknownQuantityError extends Error {
  constructor(readonly value: unknown) {
    super(
      `Unknown quantity ${JSON.stringify(value) ?? String(value)}; expected one of ${QUANTITY_IDS.join(', ')}`,
    );
    this.name = 'UnknownQuantityError';
  }
}

/** The catalogue entry for an id taken from outside (URL, server); throws UnknownQuantityError otherwise. */
export function quantityInfo(id: unknown): QuantityInfo {
  if (!isQuantityId(id)) throw new UnknownQuantityError(id);
  return QUANTITIES[id];
}

/** The legacy meter-kind names of SPEC §3. */
export const LEGACY_KINDS = [
  'coldwater',
  'hotwater',
  'electricity',
  'energy',
  'radiator',
  'temperature',
  'gas',
  'humidity',
  'cooling',
  'flow_temperature',
  'return_temperature',
  'heatvolume',
] as const;

/** A legacy meter-kind name, e.g. 'radiator'. */
export type LegacyKind = (typeof LEGACY_KINDS)[number];

const LEGACY: Record<LegacyKind, QuantityId> = {
  coldwater: 'cold-water-volume',
  hotwater: 'hot-water-volume',
  electricity: 'electricity-energy',
  energy: 'heat-energy',
  radiator: 'hca',
  temperature: 'indoor-temperature',
  gas: 'gas-volume',
  humidity: 'indoor-relative-humidity',
  cooling: 'cooling-energy',
  flow_temperature: 'heat-flow-temperature',
  return_temperature: 'heat-return-temperature',
  heatvolume: 'heat-volume',
};

/** The quantity of a legacy meter kind (case-insensitive), or null when the name is unknown. */
export function quantityFromLegacyKind(kind: unknown): QuantityId | null {
  if (typeof kind !== 'string') return null;
  const key = kind.trim().toLowerCase();
  // Own keys only: `in` would also find 'constructor' and 'toString' on Object.prototype.
  return Object.hasOwn(LEGACY, key) ? LEGACY[key as LegacyKind] : null;
}

/** The legacy meter-kind name of a quantity, where one exists. */
export function legacyKindOfQuantity(quantity: QuantityId): LegacyKind | null {
  for (const kind of LEGACY_KINDS) if (LEGACY[kind] === quantity) return kind;
  return null;
}

/** Graph types of SPEC §3. */
export const GRAPH_TYPES = ['HOURLY_VALUES', 'COST', 'CO2'] as const;

/** Satisfaction faces of SPEC §3. */
export const FACES = ['smile', 'neutral', 'sad'] as const;
/** smile, neutral or sad. */
export type Face = (typeof FACES)[number];

/** The quantities a tenant can open a consumption page for (SPEC §1), in menu order. */
export const CONSUMPTION_QUANTITIES: readonly QuantityId[] = [
  'heat-energy',
  'heat-volume',
  'hca',
  'hot-water-volume',
  'cold-water-volume',
  'total-water-volume',
  'electricity-energy',
  'cooling-energy',
  'gas-volume',
];

/** The indoor-climate quantities (SPEC §1). */
export const INDOOR_CLIMATE_QUANTITIES: readonly QuantityId[] = [
  'indoor-temperature',
  'indoor-relative-humidity',
];

/**
 * SPEC §3: cost and CO₂ are a consumption's. An averaged quantity (a temperature, a humidity) has neither, nor a
 * projection: the first such quantity of a list, or null when every one is summed.
 */
export function firstWithoutCost(quantities: readonly QuantityId[]): QuantityId | null {
  return quantities.find((q) => QUANTITIES[q].aggregation === 'avg') ?? null;
}

/** The i18n key of a quantity's name (or of the indoor-climate page's). */
export type QuantityKey = `domain:quantities.${QuantityId | 'indoor-climate'}`;

/**
 * The i18n key of a quantity's name, for an id the GraphQL schema types as a string. The server sends only
 * the ids above; one this code does not know would read as its key.
 */
export function quantityKey(id: string): QuantityKey {
  return `domain:quantities.${id}` as QuantityKey;
}
