/**
 * The three brand themes of SPEC §1, chosen at build time by PUBLIC_BRAND: two operator brands and one
 * property-manager brand, each with a logo, colours (src/styles/brands.css), a localised app name and
 * app-store links. The store ids are the demo brands' own; a deployment replaces them with its apps'.
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
  appStoreUrl: string;
  playStoreUrl: string;
}

export const BRANDS: Readonly<Record<BrandId, Brand>> = {
  varmeblik: {
    id: 'varmeblik',
    kind: 'operator',
    appName: { en: 'HeatView', da: 'Varmeblik', nb: 'Varmeblikk' },
    logo: '/brand/varmeblik/logo.svg',
    themeColor: '#c2410c',
    appStoreUrl: 'https://apps.apple.com/dk/app/varmeblik/id6450211001',
    playStoreUrl: 'https://play.google.com/store/apps/details?id=dk.varmeblik.tenant',
  },
  nordmaaler: {
    id: 'nordmaaler',
    kind: 'operator',
    appName: { en: 'Nordic Meter', da: 'NordMåler', nb: 'NordMåler' },
    logo: '/brand/nordmaaler/logo.svg',
    themeColor: '#0f766e',
    appStoreUrl: 'https://apps.apple.com/dk/app/nordmaaler/id6450211002',
    playStoreUrl: 'https://play.google.com/store/apps/details?id=no.nordmaaler.tenant',
  },
  solgaarden: {
    id: 'solgaarden',
    kind: 'property-manager',
    appName: { en: 'Solgården Home', da: 'Solgården Bolig', nb: 'Solgården Bolig' },
    logo: '/brand/solgaarden/logo.svg',
    themeColor: '#4338ca',
    appStoreUrl: 'https://apps.apple.com/dk/app/solgaarden-bolig/id6450211003',
    playStoreUrl: 'https://play.google.com/store/apps/details?id=dk.solgaarden.bolig',
  },
};

/** The brand for a PUBLIC_BRAND value; unset, "default" and unknown values get the first operator brand. */
export function brandOf(id: unknown): Brand {
  return typeof id === 'string' && Object.hasOwn(BRANDS, id) ? BRANDS[id as BrandId] : BRANDS.varmeblik;
}
