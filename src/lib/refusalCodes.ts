/**
 * Why the ingestion refused a row, as a stable code with the values its message needs (docs/ingest.md,
 * "Refusal codes"). The receipt's English `reason` stays as it was for integrators and the CLI; the code and its
 * params are what a program, and the console in the operator's language, read. Every code is listed here once:
 * the server's problems are typed by it, the console's texts are keyed by it (admin-ops `refusals.<code>`), and
 * tests/unit/refusalCodes.test.ts checks that docs/ingest.md and docs/ingest.openapi.yaml list each.
 */
export const REFUSAL_CODES = [
  'null_byte',
  'unknown_meter',
  'invalid_timestamp',
  'timestamp_before_2000',
  'timestamp_in_future',
  'not_a_number',
  'too_many_integer_digits',
  'too_many_fraction_digits',
  'negative_register',
  'out_of_range',
  'outside_installation',
  'conflicting_value_in_batch',
  'conflicts_with_stored',
  'quarantine_pending',
  'before_retention',
  'implausible_rise',
  'implausible_drop',
  'bad_csv_header',
  'malformed_csv',
  'not_written_atomic',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * The params of each code. Meter numbers and rejected texts as the reason shows them (control characters escaped,
 * cut after 40 characters); values as decimal texts; instants as ISO 8601 (a row's timestamp as it was sent).
 */
export interface RefusalParamMap {
  null_byte: Record<string, never>;
  unknown_meter: { meter: string };
  invalid_timestamp: { timestamp: string };
  timestamp_before_2000: { timestamp: string };
  timestamp_in_future: { timestamp: string };
  not_a_number: { value: string };
  too_many_integer_digits: { value: string; maxDigits: number };
  too_many_fraction_digits: { value: string; maxDigits: number };
  negative_register: { value: string };
  out_of_range: { value: string; min: number; max: number; quantity: string };
  /** `removedAt` null: the meter is still installed. */
  outside_installation: { meter: string; timestamp: string; installedAt: string; removedAt: string | null };
  /** The batch's earlier row for the same meter and timestamp, with another value. */
  conflicting_value_in_batch: {
    meter: string;
    timestamp: string;
    value: string;
    otherValue: string;
    otherLine: number;
  };
  conflicts_with_stored: { meter: string; storedValue: string };
  /** The open data issue holding another reading of the meter for this timestamp. */
  quarantine_pending: { issueId: number };
  /** `horizon`: the instant before which raw readings were removed (READING_RETENTION_YEARS). */
  before_retention: { timestamp: string; horizon: string };
  /** A fresh (first) load only; a live batch quarantines such a reading instead. */
  implausible_rise: {
    meter: string;
    at: string;
    from: string;
    to: string;
    hours: string;
    perHour: string;
    quantity: string;
  };
  implausible_drop: {
    meter: string;
    at: string;
    from: string;
    to: string;
    hours: string;
    /** The most the register may show after a reset: `resetPercent` % of it, and at most `limit`. */
    resetPercent: number;
    limit: number;
    quantity: string;
  };
  bad_csv_header: { expected: string; got: string };
  /** The CSV parser's own message, in English. */
  malformed_csv: { message: string };
  /** A good row of an atomic batch that another row's refusal kept out. */
  not_written_atomic: Record<string, never>;
}

export type RefusalParams<C extends RefusalCode = RefusalCode> = RefusalParamMap[C];

/** Whether a text (from the API, or a stored row) is one of the codes. */
export function isRefusalCode(x: unknown): x is RefusalCode {
  return typeof x === 'string' && (REFUSAL_CODES as readonly string[]).includes(x);
}

/**
 * Why the latest telegram of a radio id gave no reading (mqtt_unmatched.last_code): `no_value` (the telegram has
 * none of the fields the meter's quantity is read from), `malformed` (the parser's message), or the refusal code of
 * the reading it gave.
 */
export type TelegramDetailCode = 'no_value' | 'malformed' | RefusalCode;

export interface TelegramDetailParamMap extends RefusalParamMap {
  /** `fields`: wmbusmeters' field names the quantity is read from, best first (none: no field is known). */
  no_value: { meter: string; quantity: string; fields: string[] };
  /** The parser's message, in English. */
  malformed: { message: string };
}

export function isTelegramDetailCode(x: unknown): x is TelegramDetailCode {
  return x === 'no_value' || x === 'malformed' || isRefusalCode(x);
}
