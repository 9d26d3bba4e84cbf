/**
 * Whose feed the MQTT feed is (one `MQTT_URL` per deployment). `MQTT_ORGANISATION` names the organisation that
 * runs it (its id or exact name, as `npm run cli -- operator create --organisation` takes); unset, the
 * deployment's only organisation.
 * - **Its unknown radio ids** belong to no property, so property scoping cannot place them: only that
 *   organisation's admins see them. With several organisations and no setting, no console lists them: one
 *   organisation's admin must not see radio ids another organisation's reader sent. `npm run cli -- mqtt unknown`
 *   lists them in every case.
 * - **Its telegrams reach only that organisation's meters** (mqttMeterScope). A radio reader hears every wM-Bus
 *   meter in range, the next building's too; a telegram whose radio id is another organisation's meter is listed
 *   as unknown, not written into that meter. With several organisations and no setting, the feed is the
 *   deployment's (a metering company that runs one feed for all of them) and reaches every meter.
 */
import type { Logger } from 'pino';
import { findOrganisation, soleOrganisation } from '../admin/organisations.ts';
import type { Db } from '../db/client.ts';

/** The error the subscriber logs while `MQTT_ORGANISATION` names no organisation. */
export const HELD_MESSAGE =
  'mqtt: MQTT_ORGANISATION names no organisation; telegrams are kept in the inbox, not ingested, until it does';

/** The id of the organisation whose admins see unknown radio ids and the feed's state, or null for none. */
export async function mqttFeedOrganisation(db: Db, setting: string | undefined): Promise<number | null> {
  const scope = await mqttMeterScope(db, setting);
  return typeof scope === 'number' ? scope : null;
}

/**
 * Whose meters the feed's telegrams are matched to by radio id: an organisation's id; 'all' with several
 * organisations and no setting (or none yet); 'held' while `MQTT_ORGANISATION` names no organisation, so the
 * telegrams wait in the inbox until the setting is put right (they are neither matched across organisations nor
 * listed as unknown to nobody).
 */
export async function mqttMeterScope(db: Db, setting: string | undefined): Promise<number | 'all' | 'held'> {
  if (setting !== undefined) return (await findOrganisation(db, setting)) ?? 'held';
  const sole = await soleOrganisation(db);
  return typeof sole === 'number' ? sole : 'all';
}

/**
 * At the subscriber's start: says in the log whose meters the telegrams reach and who sees the unknown radio ids,
 * or why no console lists them, so the operator who runs the feed can set `MQTT_ORGANISATION`. A setting that
 * names no organisation is the subscriber's drain's to log (HELD_MESSAGE), at its first drain (at start) and again
 * whenever the feed becomes held; logging it here too wrote the error twice at each start.
 */
export async function logFeedOrganisation(
  db: Db,
  logger: Logger,
  setting: string | undefined,
): Promise<void> {
  const owner = await mqttFeedOrganisation(db, setting);
  if (owner !== null) {
    logger.info(
      { organisation: owner },
      'mqtt: telegrams reach this organisation’s meters only, and its admins see the unknown radio ids',
    );
  } else if (setting === undefined) {
    logger.warn(
      'mqtt: several organisations and no MQTT_ORGANISATION; telegrams reach every organisation’s meters, and no console lists unknown radio ids (npm run cli -- mqtt unknown does)',
    );
  }
}
