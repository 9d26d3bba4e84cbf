/**
 * The side menu's entries for a tenancy (SPEC §2): which show, which is active, the notifications badge, and the
 * tenancy's consumption pages under the Consumption entry.
 */
import { useTranslation } from 'react-i18next';
import type { KeysOf } from '../../client/i18nKeys.ts';
import { useNotifications } from '../../client/operations/notificationQueries.ts';
import { tenancyQuantities } from '../../lib/tenancyQuantities.ts';
import { useSession } from '../shared/useSession.ts';
import { useTenancyUnit } from '../shared/useTenancyUnit.ts';
import type { IconName } from './Icons.tsx';
import { useRememberedHide } from './useRememberedHide.ts';

/** One entry of the side menu. */
type Entry = {
  key: Extract<KeysOf<'common'>, `nav.${string}`>;
  icon: IconName;
  href: string;
  active?: boolean;
  /** Unread notifications, shown as a badge. */
  badge?: number;
  pending?: boolean;
};

/** A consumption page of the tenancy, listed under the Consumption entry. */
type SubLink = { href: string; label: string };

/** The entries of the menu of `tenancyId` as seen from `pathname`, and the tenancy's base path. */
export function useMenuEntries(
  tenancyId: string,
  pathname: string,
): { base: string; entries: Entry[]; consumptionLinks: SubLink[] } {
  const { t } = useTranslation(['common', 'consumption', 'domain']);
  const user = useSession((s) => s.context.user);
  const base = `/t/${encodeURIComponent(tenancyId)}/`;
  // On the dashboard, its one request (tenancyDashboard) brings the units too; elsewhere the menu asks.
  const onDashboard = pathname === base || pathname === base.slice(0, -1);
  const { unit } = useTenancyUnit(tenancyId, { fetch: !onDashboard });
  // SPEC §2: notifications are hidden when the property has any settings entries. Until the unit is known,
  // the menu follows what it saw last time for this tenancy; never seen, the entry keeps its place invisibly,
  // so it neither flashes in and out nor shifts the entries below.
  const known = unit === undefined ? undefined : (unit.path[0]?.property.settings.length ?? 0) > 0;
  const remembered = useRememberedHide(tenancyId, known);
  const hideNotifications = known ?? remembered ?? false;
  const settingsKnown = (known ?? remembered) !== undefined;
  const unread = useNotifications(hideNotifications ? null : tenancyId).data?.unreadCount ?? 0;
  const under = (path: string) => pathname.startsWith(`${base}${path}`);
  const tenancy = useSession((s) => s.context.tenancies.find((x) => x.id === tenancyId));
  const quantities = tenancyQuantities(tenancy?.meterUnits ?? []);
  // The consumption pages of this tenancy, under the Consumption entry (SPEC §2: it is active on all of them).
  const consumptionLinks: SubLink[] = [
    ...quantities.consumption.map((q) => ({
      href: `${base}consumption/${q}`,
      label: t(`domain:quantities.${q}`),
    })),
    ...(quantities.climate
      ? [{ href: `${base}consumption/indoor-climate`, label: t('consumption:crumbs.indoor_climate') }]
      : []),
  ];
  const onConsumption = onDashboard || under('consumption/');

  const entries: Entry[] = [
    { key: 'nav.consumption', icon: 'consumption', href: base, active: onConsumption },
    ...(user?.accountHasStatements
      ? [
          {
            key: 'nav.statements' as const,
            icon: 'statements' as const,
            href: `${base}statements`,
            active: under('statements'),
          },
        ]
      : []),
    // Issue 22: tenants are told where their monthly consumption reports are.
    { key: 'nav.monthly_reports', icon: 'reports', href: `${base}reports`, active: under('reports') },
    { key: 'nav.alarms', icon: 'alarms', href: `${base}alarms`, active: under('alarms') },
    { key: 'nav.tenancy_info', icon: 'tenancy', href: `${base}settings`, active: under('settings') },
    ...(hideNotifications
      ? []
      : [
          {
            key: 'nav.notifications' as const,
            icon: 'notifications' as const,
            href: `${base}notifications`,
            active: under('notifications'),
            badge: settingsKnown && unread > 0 ? unread : undefined,
            pending: !settingsKnown,
          },
        ]),
    { key: 'nav.help', icon: 'help', href: `${base}help`, active: under('help') },
    { key: 'nav.profile', icon: 'profile', href: `${base}profile`, active: under('profile') },
  ];
  return { base, entries, consumptionLinks };
}
