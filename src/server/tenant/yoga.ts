/** The tenant data backend (SPEC "Backend A", with the nucleolus data queries) at /api/tenant/graphql. */
import { type BackendYoga, createBackendYoga } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { loginFromSlt } from './resolvers/loginFromSlt.ts';
import { loginWithEmailAndPassword } from './resolvers/loginWithEmailAndPassword.ts';
import { me } from './resolvers/me.ts';
import { refreshToken } from './resolvers/refreshToken.ts';
import { revokeToken } from './resolvers/revokeToken.ts';
import { tenantGraph } from './resolvers/tenantGraph.ts';
import { tenantUnits } from './resolvers/tenantUnits.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the tenant backend is mounted. */
export const TENANT_GRAPHQL_ENDPOINT = '/api/tenant/graphql';

const resolvers: Resolvers = {
  Query: { me, tenantUnits, tenantGraph },
  Mutation: { loginWithEmailAndPassword, refreshToken, loginFromSlt, revokeToken },
};

/** Creates the tenant backend's Yoga server. */
export function createTenantYoga(services: ApiServices): BackendYoga {
  return createBackendYoga({
    backend: 'tenant',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: TENANT_GRAPHQL_ENDPOINT,
  });
}
