/**
 * The demo dataset as pure functions of a seed: the property's apartments and meters (the plan), and
 * each meter's reading at each hour. Every hour draws from its own generator, seeded by the hour, so
 * a reading does not depend on how generation was split into batches (seed vs. catch-up).
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export const HOUR_MS = 3_600_000;
export const DEMO_SEED = 20_260_101;
export const PROPERTY_NUMBER = '1001';
/** Rooms with a heat-cost allocator, and rooms with a temperature and humidity sensor, per apartment. */
const HCA_ROOMS = ['Living room', 'Bedroom', 'Kitchen'];
const CLIMATE_ROOMS = ['Living room', 'Bedroom'];

type StreamKind =
  | 'heat'
  | 'hca'
  | 'hot-water'
  | 'cold-water'
  | 'electricity'
  | 'indoor-temp'
  | 'humidity'
  | 'outdoor';

interface MeterPlan {
  number: string;
  /** Hour (epoch ms) the meter was installed; the history's first hour for original meters. */
  installedMs: number;
  removedMs: number | null;
}

/** One measurement point and its meters over time. */
export interface StreamPlan {
  kind: StreamKind;
  apartment: number | null;
  quantity: string;
  unit: string;
  readingKind: 'register' | 'instantaneous';
  legacyKind: string;
  room: string | null;
  name: string;
  /** Decimals of the value; registers are kept as integers of 10^-decimals. */
  decimals: number;
  meters: MeterPlan[];
  /** Register value at the first hour. */
  initial: number;
  /** Hour at which the register restarts from zero (a reset), if any. */
  resetMs: number | null;
  /**
   * A radio outage, if any: the readings of the hours strictly between these two are never sent (the register
   * keeps counting), so the hours between the readings on either side are estimated.
   */
  gap?: { fromMs: number; toMs: number };
  /** A stuck register, if any: from this hour on it keeps sending the value it had (the flat's use is not counted). */
  stuckFromMs?: number;
  /** Per-room share of the apartment's heat (allocators) or temperature offset (sensors). */
  roomFactor: number;
}

export interface ApartmentPlan {
  index: number;
  uniqueId: string;
  label: string;
  address: string;
  areaM2: number;
  rooms: number;
  persons: number;
  /** Heat loss in kW per kelvin. */
  ua: number;
  tempOffset: number;
  tenant: string;
  tenancyStart: string;
}

export interface DemoPlan {
  seed: number;
  startMs: number;
  apartments: ApartmentPlan[];
  streams: StreamPlan[];
}

const STREET = 'Solvej';
export const ZIPCODE = '8000';
export const CITY = 'Aarhus C';
const FIRST_NAMES = [
  'Mette',
  'Lars',
  'Sofie',
  'Jens',
  'Ida',
  'Mads',
  'Freja',
  'Søren',
  'Anna',
  'Peter',
  'Emma',
  'Kasper',
];
const LAST_NAMES = [
  'Jensen',
  'Nielsen',
  'Hansen',
  'Pedersen',
  'Andersen',
  'Christensen',
  'Larsen',
  'Sørensen',
];
const SIDES = ['tv', 'th'];

/** The apartments and meters of the demo property; `startMs` is the first hour of history. */
export function buildPlan(opts: {
  apartments: number;
  startMs: number;
  endMs: number;
  seed?: number;
}): DemoPlan {
  const seed = opts.seed ?? DEMO_SEED;
  const rng = xoroshiro128plus(seed);
  const float = () => uniformFloat64(rng);
  const int = (lo: number, hi: number) => uniformInt(rng, lo, hi);
  const apartments: ApartmentPlan[] = [];
  const streams: StreamPlan[] = [];
  const span = opts.endMs - opts.startMs;
  const atFraction = (f: number) => opts.startMs + Math.round((span * f) / HOUR_MS) * HOUR_MS;

  streams.push({
    kind: 'outdoor',
    apartment: null,
    quantity: 'outdoor-temperature',
    unit: 'degree-celsius',
    readingKind: 'instantaneous',
    legacyKind: 'temperature',
    room: null,
    name: 'Outdoor temperature',
    decimals: 1,
    meters: [{ number: `OUT-${PROPERTY_NUMBER}`, installedMs: opts.startMs, removedMs: null }],
    initial: 0,
    resetMs: null,
    roomFactor: 0,
  });

  for (let i = 1; i <= opts.apartments; i++) {
    const entrance = Math.ceil(i / 8);
    const floor = Math.floor(((i - 1) % 8) / 2) + 1;
    const side = SIDES[(i - 1) % 2]!;
    const rooms = int(2, 4);
    const areaM2 = 45 + rooms * 15 + int(0, 14);
    const persons = Math.max(1, rooms - 1 + int(0, 1));
    const tag = `${PROPERTY_NUMBER}-${String(i).padStart(3, '0')}`;
    const apartment: ApartmentPlan = {
      index: i,
      uniqueId: tag,
      label: `${floor}. ${side}`,
      address: `${STREET} ${entrance * 2 - 1}, ${floor}. ${side}`,
      areaM2,
      rooms,
      persons,
      ua: areaM2 * (0.0011 + float() * 0.0006),
      tempOffset: (float() - 0.5) * 2.5,
      tenant: `${FIRST_NAMES[int(0, FIRST_NAMES.length - 1)]} ${LAST_NAMES[int(0, LAST_NAMES.length - 1)]}`,
      tenancyStart: new Date(opts.startMs - int(30, 2000) * 86_400_000).toISOString().slice(0, 10),
    };
    apartments.push(apartment);
    const base = (kind: StreamKind, quantity: string, unit: string, legacyKind: string, prefix: string) => ({
      kind,
      apartment: i,
      quantity,
      unit,
      legacyKind,
      meters: [{ number: `${prefix}-${tag}`, installedMs: opts.startMs, removedMs: null }] as MeterPlan[],
      resetMs: null as number | null,
      roomFactor: 1,
    });
    streams.push({
      ...base('heat', 'heat-energy', 'kilo-watt-hour', 'energy', 'EN'),
      readingKind: 'register',
      room: null,
      name: 'Heat energy',
      decimals: 3,
      initial: int(5_000, 40_000) * 1000,
    });
    const shares = HCA_ROOMS.map(() => 0.6 + float());
    const total = shares.reduce((a, b) => a + b, 0);
    HCA_ROOMS.forEach((room, r) => {
      const s = base('hca', 'hca', 'hca-unit', 'radiator', 'RAD');
      s.meters[0]!.number = `RAD-${tag}-${r + 1}`;
      streams.push({
        ...s,
        readingKind: 'register',
        room,
        name: `Radiator, ${room.toLowerCase()}`,
        decimals: 2,
        initial: int(0, 3_000) * 100,
        roomFactor: shares[r]! / total,
      });
    });
    streams.push({
      ...base('hot-water', 'hot-water-volume', 'cubic-meter', 'hotwater', 'HW'),
      readingKind: 'register',
      room: null,
      name: 'Hot water',
      decimals: 3,
      initial: int(50, 900) * 1000,
    });
    streams.push({
      ...base('cold-water', 'cold-water-volume', 'cubic-meter', 'coldwater', 'CW'),
      readingKind: 'register',
      room: null,
      name: 'Cold water',
      decimals: 3,
      initial: int(100, 1800) * 1000,
    });
    streams.push({
      ...base('electricity', 'electricity-energy', 'kilo-watt-hour', 'electricity', 'EL'),
      readingKind: 'register',
      room: null,
      name: 'Electricity',
      decimals: 3,
      initial: int(1_000, 30_000) * 1000,
    });
    CLIMATE_ROOMS.forEach((room, r) => {
      const offset = (float() - 0.5) * 1.2;
      const t = base('indoor-temp', 'indoor-temperature', 'degree-celsius', 'temperature', 'TMP');
      t.meters[0]!.number = `TMP-${tag}-${r + 1}`;
      streams.push({
        ...t,
        readingKind: 'instantaneous',
        room,
        name: `Temperature, ${room.toLowerCase()}`,
        decimals: 1,
        initial: 0,
        roomFactor: offset,
      });
      const h = base('humidity', 'indoor-relative-humidity', 'percent', 'humidity', 'HUM');
      h.meters[0]!.number = `HUM-${tag}-${r + 1}`;
      streams.push({
        ...h,
        readingKind: 'instantaneous',
        room,
        name: `Humidity, ${room.toLowerCase()}`,
        decimals: 1,
        initial: 0,
        roomFactor: offset,
      });
    });
  }

  // History includes a meter swap (apartment 2's cold water), a register reset (apartment 3's electricity) and
  // a radio outage the day before the history ends (apartment 1's electricity: five readings missing).
  const outage = streams.find((s) => s.apartment === 1 && s.kind === 'electricity');
  if (outage && span >= 2 * 24 * HOUR_MS)
    outage.gap = { fromMs: opts.endMs - 30 * HOUR_MS, toMs: opts.endMs - 24 * HOUR_MS };
  const swap = streams.find((s) => s.apartment === 2 && s.kind === 'cold-water');
  if (swap) {
    const at = atFraction(0.4);
    const old = swap.meters[0]!;
    old.removedMs = at;
    swap.meters.push({ number: `${old.number}-B`, installedMs: at, removedMs: null });
  }
  const reset = streams.find((s) => s.apartment === 3 && s.kind === 'electricity');
  if (reset) reset.resetMs = atFraction(0.6);
  // Two faults for the operator's data-quality queue, which the worker's meter check files (ingest/meterHealth.ts;
  // demo/dataIssues.ts has the misreads): apartment 7's hot-water meter went silent 60 hours before the history
  // ends (its radio sends nothing more), and apartment 8's cold-water register stopped moving 9 days before (it
  // still sends, the same value). Neither flat has a demo login.
  const silent = streams.find((s) => s.apartment === 7 && s.kind === 'hot-water');
  if (silent && span >= 4 * 24 * HOUR_MS) {
    silent.gap = { fromMs: opts.endMs - 60 * HOUR_MS, toMs: Number.POSITIVE_INFINITY };
  }
  const stuck = streams.find((s) => s.apartment === 8 && s.kind === 'cold-water');
  if (stuck && span >= 12 * 24 * HOUR_MS) stuck.stuckFromMs = opts.endMs - 9 * 24 * HOUR_MS;
  return { seed, startMs: opts.startMs, apartments, streams };
}

/** Offset of Europe/Copenhagen from UTC in hours at an instant (EU rule: last Sundays of March and October, 01:00 UTC). */
export function copenhagenOffset(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const lastSunday = (month: number) => {
    const d = new Date(Date.UTC(year, month + 1, 0, 1));
    return d.getTime() - d.getUTCDay() * 86_400_000;
  };
  return ms >= lastSunday(2) && ms < lastSunday(9) ? 2 : 1;
}

function hashSeed(seed: number, n: number): number {
  return (Math.imul(n ^ (n >>> 16), 0x45d9f3b) ^ seed) | 0;
}

/** Smooth day-to-day weather anomaly in kelvin. */
function weatherAnomaly(seed: number, dayIndex: number, fraction: number): number {
  const day = (d: number) => (uniformFloat64(xoroshiro128plus(hashSeed(seed ^ 0x5bd1e995, d))) - 0.5) * 8;
  return day(dayIndex) * (1 - fraction) + day(dayIndex + 1) * fraction;
}

/** Synthetic outdoor temperature for Denmark: seasonal plus daily cycle plus weather. */
export function outdoorTemperature(seed: number, ms: number): number {
  const days = ms / 86_400_000;
  const dayOfYear = days - Math.floor(days / 365.2425) * 365.2425;
  const localHour = (((ms / HOUR_MS + copenhagenOffset(ms)) % 24) + 24) % 24;
  const seasonal = 8.5 - 8.5 * Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365.2425);
  const daily = -3 * Math.cos((2 * Math.PI * (localHour - 3)) / 24);
  return seasonal + daily + weatherAnomaly(seed, Math.floor(days), days - Math.floor(days));
}

// Share of a day's water use in each local hour, and electricity load relative to the daily mean.
const WATER = [1, 0.5, 0.3, 0.3, 0.5, 2, 6, 9, 7, 4, 3, 3, 4, 3, 3, 3, 4, 6, 8, 8, 7, 6, 4, 2];
const WATER_SUM = WATER.reduce((a, b) => a + b, 0);
const POWER = [
  0.5, 0.4, 0.4, 0.4, 0.4, 0.5, 0.9, 1.2, 1, 0.8, 0.8, 0.9, 1, 0.9, 0.9, 1, 1.2, 1.7, 2, 1.9, 1.6, 1.4, 1.1,
  0.7,
];

/** The hour's environment, shared by all of its streams. */
export interface HourContext {
  ms: number;
  localHour: number;
  outdoor: number;
  rng: ReturnType<typeof xoroshiro128plus>;
}

/** Context for one hour; its generator depends only on the seed and the hour. */
export function hourContext(seed: number, ms: number): HourContext {
  const localHour = Math.floor((((ms / HOUR_MS + copenhagenOffset(ms)) % 24) + 24) % 24);
  return {
    ms,
    localHour,
    outdoor: outdoorTemperature(seed, ms),
    rng: xoroshiro128plus(hashSeed(seed, ms / HOUR_MS)),
  };
}

/**
 * The stream's value for the hour: for registers the increment since the previous hour in
 * integer units of 10^-decimals, for instantaneous streams the sample itself (a number).
 */
export function streamValue(s: StreamPlan, apt: ApartmentPlan | undefined, ctx: HourContext): number {
  const u = uniformFloat64(ctx.rng);
  const scale = 10 ** s.decimals;
  const setback = ctx.localHour >= 23 || ctx.localHour < 5 ? 0.8 : 1;
  const spaceHeat = apt ? apt.ua * Math.max(0, 17 - ctx.outdoor) * setback : 0;
  switch (s.kind) {
    case 'outdoor':
      return ctx.outdoor + (u - 0.5) * 0.3;
    case 'heat':
      return Math.round((spaceHeat + 0.06) * (0.85 + 0.3 * u) * scale);
    case 'hca':
      return Math.round(spaceHeat * s.roomFactor * 0.9 * (0.8 + 0.4 * u) * scale);
    case 'hot-water':
    case 'cold-water': {
      const perDay = (s.kind === 'hot-water' ? 40 : 75) * (apt?.persons ?? 1);
      return Math.round(((perDay * WATER[ctx.localHour]!) / WATER_SUM) * 2 * u * (scale / 1000));
    }
    case 'electricity':
      return Math.round(
        (0.08 + 0.06 * (apt?.persons ?? 1) * POWER[ctx.localHour]!) * (0.7 + 0.6 * u) * scale,
      );
    case 'indoor-temp':
      return (
        21 +
        (apt?.tempOffset ?? 0) +
        s.roomFactor +
        0.05 * (ctx.outdoor - 5) +
        0.4 * Math.sin((2 * Math.PI * (ctx.localHour - 10)) / 24) +
        (u - 0.5) * 0.3
      );
    case 'humidity':
      return Math.min(
        85,
        Math.max(
          20,
          38 +
            0.8 * ctx.outdoor +
            s.roomFactor * 3 +
            (ctx.localHour >= 7 && ctx.localHour <= 9 ? 6 : 0) +
            (u - 0.5) * 4,
        ),
      );
  }
}

/** Formats an integer count of 10^-decimals as a decimal string, exactly. */
export function formatScaled(value: number, decimals: number): string {
  if (decimals === 0) return String(value);
  const digits = String(Math.abs(value)).padStart(decimals + 1, '0');
  const sign = value < 0 ? '-' : '';
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Parses a stored decimal back into an integer count of 10^-decimals. */
export function parseScaled(text: string, decimals: number): number {
  const [int = '0', frac = ''] = text.split('.');
  return Number(`${int}${frac.padEnd(decimals, '0').slice(0, decimals)}`);
}
