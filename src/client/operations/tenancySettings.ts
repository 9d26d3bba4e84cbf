/** tenancySettings and the tenancy-admin mutations (account backend), with the query options and hook. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { gql } from 'graphql-request';
import { authorizedRequest } from '../graphql.ts';

export const tenancySettingsDocument = gql`
  query TenancySettings($tenancyId: ID!) {
    tenancySettings(tenancyId: $tenancyId) {
      id
      tenancyId
      address
      zipcode
      city
      apartment
      start
      end
      propertyName
      contact {
        phone
        email
      }
      isAdmin
      members {
        userId
        name
        email
        isAdmin
        isMe
      }
      pendingInvitations {
        id
        email
        lastSentAt
      }
    }
  }
`;

/** The tenancy info of SPEC §3. */
export interface TenancySettings {
  id: string;
  tenancyId: string;
  address: string;
  zipcode: string;
  city: string;
  apartment: string;
  start: string;
  end: string | null;
  propertyName: string;
  contact: { phone: string | null; email: string | null };
  isAdmin: boolean;
  members: Array<{ userId: string; name: string; email: string; isAdmin: boolean; isMe: boolean }>;
  pendingInvitations: Array<{ id: string; email: string; lastSentAt: string }>;
}

/** Query options for a tenancy's settings. */
export const tenancySettingsQueryOptions = (tenancyId: string) =>
  queryOptions({
    queryKey: ['tenancySettings', tenancyId],
    queryFn: async () =>
      (
        await authorizedRequest<{ tenancySettings: TenancySettings }>('account', tenancySettingsDocument, {
          tenancyId,
        })
      ).tenancySettings,
  });

/** The hook. */
export function useTenancySettings(tenancyId: string) {
  return useQuery(tenancySettingsQueryOptions(tenancyId));
}

const inviteDocument = gql`
  mutation InviteToTenancy($tenancyId: ID!, $email: String!) {
    inviteToTenancy(tenancyId: $tenancyId, email: $email) {
      id
    }
  }
`;
const resendDocument = gql`
  mutation ResendInvitation($invitationId: ID!) {
    resendInvitation(invitationId: $invitationId) {
      id
    }
  }
`;
const setAdminDocument = gql`
  mutation SetTenancyAdmin($tenancyId: ID!, $userId: ID!, $isAdmin: Boolean!) {
    setTenancyAdmin(tenancyId: $tenancyId, userId: $userId, isAdmin: $isAdmin) {
      userId
    }
  }
`;
const removeDocument = gql`
  mutation RemoveTenancyUser($tenancyId: ID!, $userId: ID!) {
    removeTenancyUser(tenancyId: $tenancyId, userId: $userId) {
      ok
    }
  }
`;

/** Tenancy admin: invite by email. */
export const inviteToTenancy = (tenancyId: string, email: string) =>
  authorizedRequest('account', inviteDocument, { tenancyId, email });
/** Tenancy admin: resend a pending invitation. */
export const resendInvitation = (invitationId: string) =>
  authorizedRequest('account', resendDocument, { invitationId });
/** Tenancy admin: give or take the admin flag. */
export const setTenancyAdmin = (tenancyId: string, userId: string, isAdmin: boolean) =>
  authorizedRequest('account', setAdminDocument, { tenancyId, userId, isAdmin });
/** Tenancy admin: remove a user. */
export const removeTenancyUser = (tenancyId: string, userId: string) =>
  authorizedRequest('account', removeDocument, { tenancyId, userId });
