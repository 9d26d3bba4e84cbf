/** The unit of a tenancy's apartment, from the signed-in user's units (SPEC §3 "User units"). */
import { useTenantUnits } from '../../client/operations/tenantUnits.ts';
import { useSession } from './useSession.ts';

/**
 * The user's units query and the unit whose unitUniqueId is the tenancy's apartment; no fetch without a tenancy.
 * With `fetch: false` it only reads the cache, which another request fills (the dashboard's tenancyDashboard).
 */
export function useTenancyUnit(tenancyId: string | null, { fetch = true }: { fetch?: boolean } = {}) {
  const userId = useSession((s) => s.context.user?.id ?? null);
  const apartmentId = useSession(
    (s) => s.context.tenancies.find((x) => x.id === tenancyId)?.apartment.uniqueId ?? null,
  );
  const units = useTenantUnits(tenancyId ? userId : null, fetch);
  return { units, unit: units.data?.find((u) => u.unit.unitUniqueId === apartmentId) };
}
