/**
 * Per-property settings of the monthly report and the annual statement (table property_report_settings), with
 * their validation and defaults. Pure: used by the server (reports, statements, tenant API) and by any form that
 * edits them. A property without a stored row gets `DEFAULT_REPORT_SETTINGS`.
 *
 * What each setting feeds (EU Energy Efficiency Directive Annex VIIa, HeizkostenV §6a, the Danish billing order):
 * - landlordType: which dispute body the tenant is pointed to (private: huslejenævn; social, almen bolig:
 *   beboerklagenævn); disputeBody* override the national default with the municipality's own page.
 * - hotWaterShare: the share of heat left out of the climate correction, shown to the tenant as an assumption.
 * - hcaKwhPerUnit: the operator's kWh per allocator unit, for allocator-only buildings without a supply meter.
 * - fuelMix, network*: the heat supply's fuel mix, annual emissions and primary-energy factor.
 * - fees: taxes, levies and metering/reading/billing fees per apartment and year.
 * - consumerOrg*: the consumer organisation named beside the energy agencies.
 */
import { z } from 'zod';

/** Fuel sources the report can name (each has a label in locales/*\/reports.json). */
export const FUEL_SOURCES = [
  'biomass',
  'waste',
  'natural-gas',
  'coal',
  'oil',
  'surplus-heat',
  'heat-pump',
  'solar',
  'other',
] as const;

type FuelSource = (typeof FUEL_SOURCES)[number];

/** True when x is one of FUEL_SOURCES. */
export function isFuelSource(x: unknown): x is FuelSource {
  return (FUEL_SOURCES as readonly unknown[]).includes(x);
}

const LANDLORD_TYPES = ['private', 'social'] as const;
export type LandlordType = (typeof LANDLORD_TYPES)[number];

/** Kinds of yearly charges besides consumption (each has a label `fees.<kind>` in locales/*\/reports.json). */
const FEE_KINDS = ['tax', 'levy', 'metering', 'reading', 'billing'] as const;
type FeeKind = (typeof FEE_KINDS)[number];

export interface FuelShare {
  source: FuelSource;
  percent: number;
}

export interface Fee {
  kind: FeeKind;
  /** Per apartment and year, in the settings' currency. */
  amountPerYear: number;
}

export interface PropertyReportSettings {
  landlordType: LandlordType;
  hotWaterShare: number;
  hcaKwhPerUnit: number | null;
  fuelMix: FuelShare[];
  networkYear: number | null;
  networkCo2Tonnes: number | null;
  networkCo2GramPerKwh: number | null;
  primaryEnergyFactor: number | null;
  fees: Fee[];
  currency: string;
  disputeBodyName: string | null;
  disputeBodyUrl: string | null;
  consumerOrgName: string | null;
  consumerOrgUrl: string | null;
}

export const DEFAULT_HOT_WATER_SHARE = 0.25;
export const MAX_HOT_WATER_SHARE = 0.9;

export const DEFAULT_REPORT_SETTINGS: PropertyReportSettings = {
  landlordType: 'private',
  hotWaterShare: DEFAULT_HOT_WATER_SHARE,
  hcaKwhPerUnit: null,
  fuelMix: [],
  networkYear: null,
  networkCo2Tonnes: null,
  networkCo2GramPerKwh: null,
  primaryEnergyFactor: null,
  fees: [],
  currency: 'DKK',
  disputeBodyName: null,
  disputeBodyUrl: null,
  consumerOrgName: null,
  consumerOrgUrl: null,
};

const httpsUrl = z
  .string()
  .trim()
  .max(500)
  .refine((u) => /^https:\/\/[^\s/]+\.[^\s]+$/.test(u), { message: 'must be an https:// address' });

const fuelMix = z
  .array(
    z.object({
      source: z.enum(FUEL_SOURCES),
      percent: z.number().min(0).max(100),
    }),
  )
  .max(FUEL_SOURCES.length)
  .refine(
    (shares) => shares.length === 0 || Math.abs(shares.reduce((s, x) => s + x.percent, 0) - 100) <= 0.5,
    {
      message: 'the shares must add up to 100',
    },
  )
  .refine((shares) => new Set(shares.map((s) => s.source)).size === shares.length, {
    message: 'each source once',
  });

/** The settings as a form or the import submits them: every field optional, missing ones keep their value. */
const reportSettingsInputSchema = z
  .object({
    landlordType: z.enum(LANDLORD_TYPES),
    hotWaterShare: z.number().min(0).max(MAX_HOT_WATER_SHARE),
    hcaKwhPerUnit: z.number().positive().max(1000).nullable(),
    fuelMix,
    networkYear: z.number().int().min(2000).max(2100).nullable(),
    networkCo2Tonnes: z.number().min(0).max(1e8).nullable(),
    networkCo2GramPerKwh: z.number().min(0).max(2000).nullable(),
    primaryEnergyFactor: z.number().min(0).max(5).nullable(),
    fees: z
      .array(z.object({ kind: z.enum(FEE_KINDS), amountPerYear: z.number().min(0).max(1e6) }))
      .max(FEE_KINDS.length)
      .refine((fees) => new Set(fees.map((f) => f.kind)).size === fees.length, { message: 'each kind once' }),
    currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as DKK'),
    disputeBodyName: z.string().trim().min(1).max(200).nullable(),
    disputeBodyUrl: httpsUrl.nullable(),
    consumerOrgName: z.string().trim().min(1).max(200).nullable(),
    consumerOrgUrl: httpsUrl.nullable(),
  })
  .partial()
  .strict();

/** One problem with a settings input: the field and a stable code, for a form to show beside the field. */
export interface SettingsProblem {
  field: string;
  code: 'invalid_settings';
  message: string;
}

/**
 * Merges an input over the current settings; returns the merged settings, or every problem (nothing merged).
 * A name without its address (or the reverse) is refused, so the tenant never sees a body without a link.
 */
export function mergeReportSettings(
  current: PropertyReportSettings,
  input: unknown,
): { ok: true; settings: PropertyReportSettings } | { ok: false; problems: SettingsProblem[] } {
  const parsed = reportSettingsInputSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({
        field: i.path.join('.') || '(input)',
        code: 'invalid_settings',
        message: i.message,
      })),
    };
  }
  const settings = { ...current, ...parsed.data } as PropertyReportSettings;
  const problems: SettingsProblem[] = [];
  for (const [name, url] of [
    ['disputeBodyName', 'disputeBodyUrl'],
    ['consumerOrgName', 'consumerOrgUrl'],
  ] as const) {
    if ((settings[name] === null) !== (settings[url] === null))
      problems.push({ field: url, code: 'invalid_settings', message: `${name} and ${url} go together` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings };
}

/** A body a tenant can turn to, with its web address. `kind` picks the translated description. */
export interface Body {
  kind: 'rent-tribunal' | 'tenant-complaints-board' | 'energy-complaints-board' | 'consumer-organisation';
  name: string;
  url: string;
}

/**
 * The dispute bodies for a property in a country: the tenancy's tribunal (by landlord type, or the property's
 * override) and the energy complaints board. Names are the bodies' own, not translated.
 */
export function disputeBodies(settings: PropertyReportSettings, country: string): Body[] {
  const tribunal: Body =
    settings.disputeBodyName && settings.disputeBodyUrl
      ? {
          kind: settings.landlordType === 'social' ? 'tenant-complaints-board' : 'rent-tribunal',
          name: settings.disputeBodyName,
          url: settings.disputeBodyUrl,
        }
      : country === 'NO'
        ? { kind: 'rent-tribunal', name: 'Husleietvistutvalget', url: 'https://www.htu.no' }
        : country === 'DE'
          ? { kind: 'rent-tribunal', name: 'Deutscher Mieterbund', url: 'https://www.mieterbund.de' }
          : settings.landlordType === 'social'
            ? {
                kind: 'tenant-complaints-board',
                name: 'Beboerklagenævnet (din kommune)',
                url: 'https://www.borger.dk/bolig-og-flytning/lejebolig',
              }
            : {
                kind: 'rent-tribunal',
                name: 'Huslejenævnet (din kommune)',
                url: 'https://www.borger.dk/bolig-og-flytning/lejebolig',
              };
  const energy: Body =
    country === 'NO'
      ? { kind: 'energy-complaints-board', name: 'Elklagenemnda', url: 'https://www.elklagenemnda.no' }
      : country === 'DE'
        ? {
            kind: 'energy-complaints-board',
            name: 'Schlichtungsstelle Energie',
            url: 'https://www.schlichtungsstelle-energie.de',
          }
        : {
            kind: 'energy-complaints-board',
            name: 'Ankenævnet på Energiområdet',
            url: 'https://www.energianke.dk',
          };
  return [tribunal, energy];
}

/** The consumer organisation named beside the energy agencies: the property's, else the country's. */
export function consumerOrganisation(settings: PropertyReportSettings, country: string): Body {
  if (settings.consumerOrgName && settings.consumerOrgUrl)
    return { kind: 'consumer-organisation', name: settings.consumerOrgName, url: settings.consumerOrgUrl };
  if (country === 'NO')
    return { kind: 'consumer-organisation', name: 'Forbrukerrådet', url: 'https://www.forbrukerradet.no' };
  if (country === 'DE')
    return {
      kind: 'consumer-organisation',
      name: 'Verbraucherzentrale',
      url: 'https://www.verbraucherzentrale.de',
    };
  return { kind: 'consumer-organisation', name: 'Forbrugerrådet Tænk', url: 'https://taenk.dk' };
}
