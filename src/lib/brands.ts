/**
 * The three brand themes of SPEC §1, chosen at build time by PUBLIC_BRAND: two operator brands and one
 * property-manager brand, each with a logo, colours (src/styles/brands.css) and a localised app name.
 * The App Store and Google Play links are not part of a brand: they are set per brand build with
 * PUBLIC_APP_STORE_URL and PUBLIC_PLAY_STORE_URL, and a link that is not set is not shown (a made-up link would
 * send tenants to a wrong app).
 */
import type { Language } from './languages.ts';

export type BrandId = 'varmeblik' | 'nordmaaler' | 'solgaarden';

export interface Brand {
  id: BrandId;
  kind: 'operator' | 'property-manager';
  appName: Record<Language, string>;
  logo: string;
  /** The browser UI colour (meta theme-color); the same as --brand. */
  themeColor: string;
}

const BRANDS: Readonly<Record<BrandId, Brand>> = {
  varmeblik: {
    id: 'varmeblik',
    kind: 'operator',
    appName: { en: 'HeatView', da: 'Varmeblik', nb: 'Varmeblikk' },
    logo: '/brand/varmeblik/logo.svg',
    themeColor: '#c2410c',
  },
  nordmaaler: {
    id: 'nordmaaler',
    kind: 'operator',
    appName: { en: 'Nordic Meter', da: 'NordMåler', nb: 'NordMåler' },
    logo: '/brand/nordmaaler/logo.svg',
    themeColor: '#0f766e',
  },
  solgaarden: {
    id: 'solgaarden',
    kind: 'property-manager',
    appName: { en: 'Solgården Home', da: 'Solgården Bolig', nb: 'Solgården Bolig' },
    logo: '/brand/solgaarden/logo.svg',
    themeColor: '#4338ca',
  },
};

/** The brand for a PUBLIC_BRAND value; unset, "default" and unknown values get the first operator brand. */
export function brandOf(id: unknown): Brand {
  return typeof id === 'string' && Object.hasOwn(BRANDS, id) ? BRANDS[id as BrandId] : BRANDS.varmeblik;
}

/**
 * DEMO PLACEHOLDERS, not real apps: store links of the made-up demo brands, for trying the footer's store links
 * (e.g. `PUBLIC_APP_STORE_URL=… PUBLIC_PLAY_STORE_URL=… npm run build`) and for the brand e2e test. Nothing
 * uses them unless they are passed in those variables; a deployment sets its own apps' links there.
 */
export const DEMO_PLACEHOLDER_STORE_LINKS: Readonly<
  Record<BrandId, { appStore: string; playStore: string }>
> = {
  varmeblik: {
    appStore: 'https://apps.apple.com/dk/app/varmeblik/id6450211001',
    playStore: 'https://play.google.com/store/apps/details?id=dk.varmeblik.tenant',
  },
  nordmaaler: {
    appStore: 'https://apps.apple.com/dk/app/nordmaaler/id6450211002',
    playStore: 'https://play.google.com/store/apps/details?id=no.nordmaaler.tenant',
  },
  solgaarden: {
    appStore: 'https://apps.apple.com/dk/app/solgaarden-bolig/id6450211003',
    playStore: 'https://play.google.com/store/apps/details?id=dk.solgaarden.bolig',
  },
};
