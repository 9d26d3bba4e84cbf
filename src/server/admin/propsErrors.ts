/** Expected failures of the console's property and meter calls (issue 21); admin-props.json has a text for each. */
import { createGraphQLError } from 'graphql-yoga';

/** The `extensions.code` values of these calls. */
export type PropsErrorCode =
  | 'PROPERTY_FILE_INVALID'
  | 'RADIO_ID_TAKEN'
  | 'METER_PERIOD_INVALID'
  | 'METER_SWAP_REFUSED'
  | 'UNIQUE_ID_TAKEN'
  | 'METER_NUMBER_TAKEN'
  | 'LEGACY_KIND_NEEDED';

export function propsError(code: PropsErrorCode, message: string, extensions: Record<string, unknown> = {}) {
  return createGraphQLError(message, { extensions: { code, ...extensions } });
}
