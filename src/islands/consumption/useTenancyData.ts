/** The selected tenancy, its unit and language, as every consumption island needs them. */
import { useTranslation } from 'react-i18next';
import { parseLanguage } from '../../lib/languages.ts';
import { useSession } from '../shared/useSession.ts';
import { useTenancyUnit } from '../shared/useTenancyUnit.ts';

/**
 * Ready once the session has the tenancy; the unit arrives with tenantUnits (shared with the shell's menu), or,
 * with `fetchUnits: false`, with whatever request fills that cache (the dashboard's tenancyDashboard).
 */
export function useTenancyData({ fetchUnits = true }: { fetchUnits?: boolean } = {}) {
  const { i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const ready = useSession((s) => s.matches({ loggedIn: { tenancy: 'withTenancies' } }));
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const tenancy = useSession((s) => s.context.tenancies.find((x) => x.id === s.context.selectedTenancyId));
  const { units, unit } = useTenancyUnit(ready ? selectedId : null, { fetch: fetchUnits });
  // SPEC §3 property settings: the HOURLY_VALUES entry says the property has hourly data.
  const hasHourlyData = unit?.path[0]?.property.settings.some((s) => s.kind === 'HOURLY_VALUES') ?? false;
  const userId = useSession((s) => s.context.user?.id ?? null);
  return { lang, ready, tenancy, units, unit, hasHourlyData, userId };
}
