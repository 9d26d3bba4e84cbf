/** The tenant data backend (SPEC "Backend A", with the nucleolus data queries) at /api/tenant/graphql. */
import { type BackendYoga, createBackendYoga, type FetchClasses } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { alarm } from './resolvers/alarm.ts';
import { createAlarm } from './resolvers/alarmCreate.ts';
import { deleteAlarm } from './resolvers/alarmDelete.ts';
import { alarms } from './resolvers/alarms.ts';
import { updateAlarm } from './resolvers/alarmUpdate.ts';
import { alarmValues } from './resolvers/alarmValues.ts';
import { consumptionProjection } from './resolvers/consumptionProjection.ts';
import { fixedCharges } from './resolvers/fixedCharges.ts';
import { loginFromSlt } from './resolvers/loginFromSlt.ts';
import { loginWithEmailAndPassword } from './resolvers/loginWithEmailAndPassword.ts';
import { me } from './resolvers/me.ts';
import { notification } from './resolvers/notification.ts';
import { markAllNotificationsRead } from './resolvers/notificationMarkAllRead.ts';
import { markNotificationRead } from './resolvers/notificationMarkRead.ts';
import { notifications } from './resolvers/notifications.ts';
import { quantityPrices } from './resolvers/quantityPrices.ts';
import { readoutMinMax } from './resolvers/readoutMinMax.ts';
import { refreshToken } from './resolvers/refreshToken.ts';
import { revokeToken } from './resolvers/revokeToken.ts';
import { tenancyDashboard } from './resolvers/tenancyDashboard.ts';
import { tenantGraph } from './resolvers/tenantGraph.ts';
import { tenantTable } from './resolvers/tenantTable.ts';
import { tenantUnits } from './resolvers/tenantUnits.ts';
import { unitQuantityKpis } from './resolvers/unitQuantityKpis.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the tenant backend is mounted. */
export const TENANT_GRAPHQL_ENDPOINT = '/api/tenant/graphql';

const resolvers: Resolvers = {
  Query: {
    me,
    tenantUnits,
    tenancyDashboard,
    tenantGraph,
    alarms,
    alarm,
    alarmValues,
    notifications,
    notification,
    quantityPrices,
    fixedCharges,
    consumptionProjection,
    tenantTable,
    unitQuantityKpis,
    readoutMinMax,
  },
  Mutation: {
    loginWithEmailAndPassword,
    refreshToken,
    createAlarm,
    updateAlarm,
    deleteAlarm,
    markNotificationRead,
    markAllNotificationsRead,
    loginFromSlt,
    revokeToken,
  },
};

/** Creates the tenant backend's Yoga server. */
export function createTenantYoga(services: ApiServices, fetchClasses: FetchClasses = 'native'): BackendYoga {
  return createBackendYoga({
    fetchClasses,
    backend: 'tenant',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: TENANT_GRAPHQL_ENDPOINT,
    // tenantGraph and tenancyDashboard check the caller with its tenancies, in one statement (access.ts's
    // callerUnitsAndPoints, callerTenancies.ts).
    deferCallerCheck: ['tenantGraph', 'tenancyDashboard'],
  });
}
