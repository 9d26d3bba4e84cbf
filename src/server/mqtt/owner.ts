/**
 * Whose console lists the MQTT feed's unknown radio ids. A telegram whose radio id no meter has belongs to no
 * property, so property scoping cannot place it; the feed (one `MQTT_URL` per deployment) is run by one
 * organisation, and only that organisation's admins see the ids it could not place. `MQTT_ORGANISATION` names it
 * (its id or exact name, as `npm run cli -- operator create --organisation` takes); unset, the deployment's only
 * organisation. With several organisations and no setting, no console lists them: one organisation's admin must
 * not see radio ids another organisation's reader sent. `npm run cli -- mqtt unknown` lists them in every case.
 */
import type { Logger } from 'pino';
import { findOrganisation, soleOrganisation } from '../admin/organisations.ts';
import type { Db } from '../db/client.ts';

/** The id of the organisation whose admins see unknown radio ids, or null for none. */
export async function mqttFeedOrganisation(db: Db, setting: string | undefined): Promise<number | null> {
  if (setting !== undefined) return findOrganisation(db, setting);
  const sole = await soleOrganisation(db);
  return typeof sole === 'number' ? sole : null;
}

/**
 * At the subscriber's start: says in the log when no console will list the unknown radio ids, and why, so the
 * operator who runs the feed can set `MQTT_ORGANISATION`.
 */
export async function logFeedOrganisation(
  db: Db,
  logger: Logger,
  setting: string | undefined,
): Promise<void> {
  const owner = await mqttFeedOrganisation(db, setting);
  if (owner !== null) {
    logger.info({ organisation: owner }, 'mqtt: unknown radio ids are listed to this organisation’s admins');
  } else if (setting !== undefined) {
    logger.error(
      { MQTT_ORGANISATION: setting },
      'mqtt: MQTT_ORGANISATION names no organisation; no console lists unknown radio ids (npm run cli -- mqtt unknown does)',
    );
  } else {
    logger.warn(
      'mqtt: several organisations and no MQTT_ORGANISATION; no console lists unknown radio ids (npm run cli -- mqtt unknown does)',
    );
  }
}
