/** tenancySettings and the tenancy-admin mutations (account backend), with the query options and hook. */

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  InviteToTenancyDocument as inviteDocument,
  RemoveTenancyUserDocument as removeDocument,
  ResendInvitationDocument as resendDocument,
  SetTenancyAdminDocument as setAdminDocument,
  TenancySettingsDocument as tenancySettingsDocument,
} from '../gql/account.ts';
import { authorizedRequest } from '../graphql.ts';

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
        await authorizedRequest('account', tenancySettingsDocument, {
          tenancyId,
        })
      ).tenancySettings,
  });

/** The hook. */
export function useTenancySettings(tenancyId: string) {
  return useQuery(tenancySettingsQueryOptions(tenancyId));
}

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
