/** UserQuery (account backend): the signed-in user and every tenancy of theirs (SPEC §3, §7). */
import { gql } from 'graphql-request';
import type { SessionUser, Tenancy, UserAndTenancies } from '../../machines/session.machine.ts';
import { requestWithToken } from '../graphql.ts';

export const userQueryDocument = gql`
  query UserQuery {
    me {
      id
      email
      name
      language
      isSuperuser
      isActive
      isAdmin
      userType
      emailNotifications
      accountHasStatements
    }
    allTenanciesForCurrentUser {
      id
      propertyNumber
      tenancyId
      tenant
      start
      end
      useNewBackend
      dataAvailability {
        start
        end
      }
      billingPeriod {
        start
        end
      }
      apartment {
        apartmentInfo {
          city
          zipcode
        }
        uniqueId
        apartment
        address
      }
      latestAllocationStatement {
        fileName
        url
        periodStartDate
        periodEndDate
        expenseTypes
      }
      meterUnits {
        kind
        unit
      }
      isAdmin
    }
  }
`;

type UserQueryResult = { me: SessionUser | null; allTenanciesForCurrentUser: Tenancy[] };

/** Loads the user and tenancies with the account access token; SPEC §8 "Invalid user response" when empty. */
export async function fetchUserAndTenancies(accountToken: string): Promise<UserAndTenancies> {
  const data = await requestWithToken<UserQueryResult>('account', userQueryDocument, {}, accountToken);
  if (!data.me) throw new Error('Invalid user response');
  return { user: data.me, tenancies: data.allTenanciesForCurrentUser };
}
