/** The account backend (SPEC "Backend B") at /api/account/graphql. */
import { JSONScalar } from '../graphql/json-scalar.ts';
import { type BackendYoga, createBackendYoga } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { allocationStatements, tenancyLatestAllocationStatement } from './resolvers/allocationStatements.ts';
import { allTenanciesForCurrentUser } from './resolvers/allTenanciesForCurrentUser.ts';
import { me } from './resolvers/me.ts';
import { monthlyReports } from './resolvers/monthlyReports.ts';
import { refreshToken } from './resolvers/refreshToken.ts';
import { revokeToken } from './resolvers/revokeToken.ts';
import { tokenAuth } from './resolvers/tokenAuth.ts';
import { userAccountHasStatements } from './resolvers/userAccountHasStatements.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the account backend is mounted. */
export const ACCOUNT_GRAPHQL_ENDPOINT = '/api/account/graphql';

const resolvers: Resolvers = {
  JSON: JSONScalar,
  Query: { me, allTenanciesForCurrentUser, allocationStatements, monthlyReports },
  Mutation: { tokenAuth, refreshToken, revokeToken },
  Tenancy: { latestAllocationStatement: tenancyLatestAllocationStatement },
  User: { accountHasStatements: userAccountHasStatements },
};

/** Creates the account backend's Yoga server. */
export function createAccountYoga(services: ApiServices): BackendYoga {
  return createBackendYoga({
    backend: 'account',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: ACCOUNT_GRAPHQL_ENDPOINT,
  });
}
