/** `npm run cli -- mqtt unknown`: the telegrams that gave no reading, for the operator. */
import type { Db } from '../db/client.ts';
import { listUnmatched } from './inbox.ts';

export const MQTT_HELP = `  mqtt unknown        List MQTT telegrams that gave no reading, by radio id and reason (unknown_id: no
                      meter has the radio id; malformed; no_value: no field for the meter's quantity; refused).
                      Set a meter's radio id to match it.`;

/** Prints the unmatched telegrams as a table; returns false for an unknown subcommand. */
export async function runMqttCommand(db: Db, rest: string[]): Promise<boolean> {
  if (rest.length !== 1 || rest[0] !== 'unknown') return false;
  const rows = await listUnmatched(db);
  if (rows.length === 0) {
    console.log('Every MQTT telegram so far gave a reading.');
    return true;
  }
  console.log('radio_id\treason\ttelegrams\tfirst_seen\tlast_seen\tdriver\tdetail');
  for (const r of rows) {
    console.log(
      [
        r.radio_id,
        r.reason,
        r.telegrams,
        r.first_seen,
        r.last_seen,
        r.driver ?? '',
        r.last_detail ?? '',
      ].join('\t'),
    );
  }
  return true;
}
