/**
 * Whose console lists the MQTT feed's unknown radio ids (src/server/mqtt/owner.ts): the deployment's only
 * organisation, or the one MQTT_ORGANISATION names (by id or exact name); with several and no setting, none. The
 * console's side of the rule is checked in admin-ops.test.ts ("untakenTelegrams").
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { accounts } from '../../src/server/db/schema.ts';
import { logFeedOrganisation, mqttFeedOrganisation, mqttMeterScope } from '../../src/server/mqtt/owner.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The log lines `logFeedOrganisation` writes for a setting. */
async function logged(setting: string | undefined): Promise<Array<{ level: number; msg: string }>> {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  await logFeedOrganisation(database.db, pino({ level: 'info' }, sink), setting);
  return lines;
}

describe('mqttFeedOrganisation', () => {
  it('the only organisation, or the named one; with several and no setting, none', async () => {
    const db = database.db;
    expect(await mqttFeedOrganisation(db, undefined)).toBeNull();
    const [one] = await db.insert(accounts).values({ name: 'Boligselskabet Øst' }).returning();
    expect(await mqttFeedOrganisation(db, undefined)).toBe(one!.id);
    expect((await logged(undefined)).map((l) => l.level)).toEqual([30]);
    const [two] = await db.insert(accounts).values({ name: 'Måler A/S' }).returning();
    expect(await mqttFeedOrganisation(db, undefined)).toBeNull();
    const warned = await logged(undefined);
    expect(warned.map((l) => l.level)).toEqual([40]);
    expect(warned[0]!.msg).toContain('MQTT_ORGANISATION');
    expect(await mqttFeedOrganisation(db, String(two!.id))).toBe(two!.id);
    expect(await mqttFeedOrganisation(db, 'Måler A/S')).toBe(two!.id);
    expect(await mqttFeedOrganisation(db, 'Boligselskabet Øst')).toBe(one!.id);
    // Names no organisation: none. The subscriber's first drain logs that as an error (tests/api/mqtt.test.ts),
    // so the start's check does not log it a second time.
    expect(await mqttFeedOrganisation(db, 'måler a/s')).toBeNull();
    expect(await mqttFeedOrganisation(db, String(two!.id + 100))).toBeNull();
    expect(await logged('Nobody')).toEqual([]);
  });

  it("mqttMeterScope: the named or only organisation's meters; every one's with several and no setting; held when it names none", async () => {
    const db = database.db;
    const [one, two] = await db.select().from(accounts).orderBy(accounts.id);
    expect(await mqttMeterScope(db, undefined)).toBe('all');
    expect(await mqttMeterScope(db, 'Måler A/S')).toBe(two!.id);
    expect(await mqttMeterScope(db, String(one!.id))).toBe(one!.id);
    expect(await mqttMeterScope(db, 'Nobody')).toBe('held');
  });

  it('MQTT_ORGANISATION: empty or blank is unset', () => {
    const parse = (v: string) => parseServerConfig({ DATA_DIR: '/nonexistent', MQTT_ORGANISATION: v });
    expect(parse('').MQTT_ORGANISATION).toBeUndefined();
    expect(parse('  ').MQTT_ORGANISATION).toBeUndefined();
    expect(parse(' 7 ').MQTT_ORGANISATION).toBe('7');
  });
});
