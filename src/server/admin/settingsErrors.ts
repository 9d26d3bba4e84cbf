/** Expected failures of the console's settings pages: prices, report texts and statements (issue 21). */
import { createGraphQLError } from 'graphql-yoga';

/** The `extensions.code` values of these calls; the console maps each to an admin-settings.json text. */
export type SettingsErrorCode =
  /** A new period would start on or before an existing one's start: that is a correction, not a new period. */
  | 'RATE_HISTORY_LOCKED'
  /** The change alters figures already shown (a backdated period or a correction): confirm it with a reason. */
  | 'CONFIRMATION_REQUIRED'
  | 'RATE_NOT_FOUND'
  | 'INVALID_RATE'
  | 'INVALID_SETTINGS'
  | 'INVALID_STATEMENTS';

export function settingsError(code: SettingsErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return createGraphQLError(message, { extensions: { code, ...extra } });
}
