/** The account backend (SPEC "Backend B") at /api/account/graphql. */
import { JSONScalar } from '../graphql/json-scalar.ts';
import { type BackendYoga, createBackendYoga, type FetchClasses } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { addTenancy } from './resolvers/addTenancy.ts';
import {
  allocationStatementSummary,
  allocationStatements,
  tenancyLatestAllocationStatement,
} from './resolvers/allocationStatements.ts';
import { allTenanciesForCurrentUser } from './resolvers/allTenanciesForCurrentUser.ts';
import { changePassword } from './resolvers/changePassword.ts';
import { confirmEmailChange } from './resolvers/confirmEmailChange.ts';
import { createEmailPasswordUser } from './resolvers/createEmailPasswordUser.ts';
import { deleteAccount } from './resolvers/deleteAccount.ts';
import { impersonate } from './resolvers/impersonate.ts';
import { inviteToTenancy } from './resolvers/inviteToTenancy.ts';
import { leaveTenancy } from './resolvers/leaveTenancy.ts';
import { me } from './resolvers/me.ts';
import { monthlyReports } from './resolvers/monthlyReports.ts';
import { passwordReset } from './resolvers/passwordReset.ts';
import { refreshToken } from './resolvers/refreshToken.ts';
import { removeTenancyUser } from './resolvers/removeTenancyUser.ts';
import { requestEmailChange } from './resolvers/requestEmailChange.ts';
import { requestPasswordReset } from './resolvers/requestPasswordReset.ts';
import { resendInvitation } from './resolvers/resendInvitation.ts';
import { revokeToken } from './resolvers/revokeToken.ts';
import { setTenancyAdmin } from './resolvers/setTenancyAdmin.ts';
import { socialAuth } from './resolvers/socialAuth.ts';
import { socialProviders } from './resolvers/socialProviders.ts';
import { tenancySettings } from './resolvers/tenancySettings.ts';
import { tokenAuth } from './resolvers/tokenAuth.ts';
import { updateProfile } from './resolvers/updateProfile.ts';
import { userAccountHasStatements } from './resolvers/userAccountHasStatements.ts';
import { validateActivationCode } from './resolvers/validateActivationCode.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the account backend is mounted. */
export const ACCOUNT_GRAPHQL_ENDPOINT = '/api/account/graphql';

const resolvers: Resolvers = {
  JSON: JSONScalar,
  Query: {
    me,
    allTenanciesForCurrentUser,
    allocationStatements,
    monthlyReports,
    validateActivationCode,
    tenancySettings,
    socialProviders,
  },
  Mutation: {
    tokenAuth,
    refreshToken,
    revokeToken,
    createEmailPasswordUser,
    addTenancy,
    requestPasswordReset,
    passwordReset,
    changePassword,
    requestEmailChange,
    confirmEmailChange,
    updateProfile,
    leaveTenancy,
    deleteAccount,
    inviteToTenancy,
    resendInvitation,
    setTenancyAdmin,
    removeTenancyUser,
    impersonate,
    socialAuth,
  },
  Tenancy: { latestAllocationStatement: tenancyLatestAllocationStatement },
  AllocationStatementSummary: allocationStatementSummary,
  User: { accountHasStatements: userAccountHasStatements },
};

/** Creates the account backend's Yoga server. */
export function createAccountYoga(services: ApiServices, fetchClasses: FetchClasses = 'native'): BackendYoga {
  return createBackendYoga({
    fetchClasses,
    backend: 'account',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: ACCOUNT_GRAPHQL_ENDPOINT,
  });
}
