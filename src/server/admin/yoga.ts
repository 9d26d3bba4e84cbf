/** The operator console's backend at /api/admin/graphql (its own issuer, audience and key). */
import { JSONScalar } from '../graphql/json-scalar.ts';
import { type BackendYoga, createBackendYoga, type FetchClasses } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { auditLog } from './resolvers/auditLog.ts';
import { operatorLogin, operatorSecondFactor, refreshToken, revokeToken } from './resolvers/auth.ts';
import {
  createOperator,
  deactivateOperator,
  operatorMe,
  operators,
  setOperatorAccess,
} from './resolvers/operators.ts';
import { portfolio } from './resolvers/portfolio.ts';
import { properties, property } from './resolvers/properties.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the admin backend is mounted. */
export const ADMIN_GRAPHQL_ENDPOINT = '/api/admin/graphql';

const resolvers: Resolvers = {
  JSON: JSONScalar,
  Query: {
    operatorMe,
    operators,
    properties,
    property,
    auditLog,
    portfolio,
  },
  Mutation: {
    operatorLogin,
    operatorSecondFactor,
    refreshToken,
    revokeToken,
    createOperator,
    setOperatorAccess,
    deactivateOperator,
  },
};

/** Creates the admin backend's Yoga server. */
export function createAdminYoga(services: ApiServices, fetchClasses: FetchClasses = 'native'): BackendYoga {
  return createBackendYoga({
    fetchClasses,
    backend: 'admin',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: ADMIN_GRAPHQL_ENDPOINT,
  });
}
