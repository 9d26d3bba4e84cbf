/**
 * `npm run cli -- mqtt unknown`: the telegrams that gave no reading; `mqtt status`: the feed's subscribers and
 * backlog, as the console shows them (status.ts), for the operator.
 */
import type { Db } from '../db/client.ts';
import { listUnmatched } from './inbox.ts';
import { feedStatus } from './status.ts';

export const MQTT_HELP = `  mqtt unknown        List MQTT telegrams that gave no reading, by radio id and reason (unknown_id: no
                      meter has the radio id; malformed; no_value: no field for the meter's quantity; refused).
                      Set a meter's radio id to match it.
  mqtt status         The MQTT subscribers as they last reported (connected or not and since when, the
                      broker's latest error, the last telegram; "not running" after 2 minutes without a
                      report), and the telegrams waiting in the inbox.`;

/** Runs `mqtt unknown` or `mqtt status`; returns false for an unknown subcommand. */
export async function runMqttCommand(db: Db, rest: string[]): Promise<boolean> {
  if (rest.length !== 1) return false;
  if (rest[0] === 'status') {
    await printStatus(db);
    return true;
  }
  if (rest[0] !== 'unknown') return false;
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

async function printStatus(db: Db): Promise<void> {
  const status = await feedStatus(db);
  if (!status) {
    console.log(
      'No MQTT subscriber has reported, and no telegram is waiting (is MQTT_URL set where the jobs run?).',
    );
    return;
  }
  for (const s of status.subscribers) {
    const state = !s.running
      ? `not running: no report since ${s.reportedAt}`
      : `${s.connected ? 'connected' : 'not connected'} since ${s.since}`;
    console.log(`${s.clientId}\t${s.url}\t${s.topic}\t${state}`);
    if (s.lastError) console.log(`  broker's latest error: ${s.lastError}`);
    console.log(`  last telegram stored: ${s.lastTelegramAt ?? 'none yet'}`);
  }
  console.log(
    status.waiting === 0
      ? 'No telegram is waiting to be taken in.'
      : `${status.waiting} telegram(s) waiting to be taken in, the oldest stored ${status.oldestWaitingAt}.`,
  );
}
