/** Expected failures of the console's tenancy, invitation, data-quality and API-key calls. */
import { createGraphQLError } from 'graphql-yoga';

/** The `extensions.code` values of these calls; the console maps each to an admin-ops.json text. */
export type OpsErrorCode =
  | 'TENANCY_OVERLAP'
  | 'TENANCY_REFERENCE_TAKEN'
  | 'NOT_A_METER_OF_THE_FLAT'
  | 'INVITATION_USED'
  | 'INVITATION_REVOKED'
  | 'NO_ADDRESS'
  | 'DATA_ISSUE_NOT_OPEN'
  | 'DATA_ISSUE_BAD_RESOLUTION'
  | 'REASON_REQUIRED'
  | 'CANNOT_IMPERSONATE'
  | 'TENANT_DEACTIVATED'
  | 'TENANT_OF_ANOTHER_ORGANISATION'
  | 'SEARCH_TOO_SHORT'
  | 'METER_NOT_FOUND'
  | 'METER_HAS_RADIO_ID';

export function opsError(code: OpsErrorCode, message: string) {
  return createGraphQLError(message, { extensions: { code } });
}
