/** The ObjectDetails fields (SPEC §3) the consumption operations read, and their type. */

/** ObjectDetails as the consumption documents read them. */
export type ObjectDetails = {
  id: string;
  kind: 'PROPERTY' | 'UNIT' | 'SOURCE' | 'MPOINT';
  unit: { id: string; name: string } | null;
  group: {
    id: string;
    quantity: string;
    operational: boolean;
    meter: { id: string; number: string; roomName: string | null } | null;
  } | null;
  measurementPoint: { id: string; name: string; room: string | null; quantity: string } | null;
};

/** A quantity descriptor (SPEC §3). */
export type QuantityDescriptor = { quantity: string; normalized: boolean; expressedAs: string | null };

/** Which climate correction was applied, as the server reports it. */
export type ClimateCorrection = {
  applied: 'DEGREE_DAYS' | 'NONE';
  reason: string | null;
  baseTemperature: number;
  hotWaterShare: number;
  degreeDays: number | null;
  lastYearDegreeDays: number | null;
  normalDegreeDays: number | null;
};
