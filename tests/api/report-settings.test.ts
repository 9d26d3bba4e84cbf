/**
 * Per-property report settings (property_report_settings): defaults, a valid save, refused input that changes
 * nothing, an unknown property, and the dispute body by landlord type; on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS, disputeBodies } from '../../src/lib/reportSettings.ts';
import type { Database } from '../../src/server/db/client.ts';
import { accounts, properties } from '../../src/server/db/schema.ts';
import {
  readReportSettings,
  readReportSettingsOf,
  saveReportSettings,
} from '../../src/server/reports/settings.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

describe(`property report settings (${testEngine})`, () => {
  let database: Database;
  let propertyId: number;
  let otherId: number;

  beforeAll(async () => {
    database = await freshDatabase();
    const [account] = await database.db.insert(accounts).values({ name: 'Udlejer' }).returning();
    const rows = await database.db
      .insert(properties)
      .values([
        { accountId: account!.id, number: 'S-1', address: 'Vej 1', zipcode: '8000', city: 'Aarhus' },
        { accountId: account!.id, number: 'S-2', address: 'Vej 2', zipcode: '8000', city: 'Aarhus' },
      ])
      .returning();
    propertyId = rows[0]!.id;
    otherId = rows[1]!.id;
  });
  afterAll(async () => database?.close());

  it('reads the defaults for a property without a row', async () => {
    expect(await readReportSettings(database.db, propertyId)).toEqual(DEFAULT_REPORT_SETTINGS);
  });

  it('saves a valid subset and keeps the rest', async () => {
    const saved = await saveReportSettings(database.db, propertyId, {
      landlordType: 'social',
      hotWaterShare: 0.3,
      fuelMix: [
        { source: 'biomass', percent: 60 },
        { source: 'waste', percent: 40 },
      ],
      fees: [{ kind: 'tax', amountPerYear: 120.5 }],
      primaryEnergyFactor: 0.85,
    });
    expect(saved.ok).toBe(true);
    const read = await readReportSettings(database.db, propertyId);
    expect(read).toMatchObject({
      landlordType: 'social',
      hotWaterShare: 0.3,
      primaryEnergyFactor: 0.85,
      fees: [{ kind: 'tax', amountPerYear: 120.5 }],
      currency: 'DKK',
      hcaKwhPerUnit: null,
    });
    const many = await readReportSettingsOf(database.db, [propertyId, otherId]);
    expect(many.get(otherId)).toEqual(DEFAULT_REPORT_SETTINGS);
    expect(many.get(propertyId)?.hotWaterShare).toBe(0.3);
    expect(disputeBodies(read, 'DK')[0]).toMatchObject({ kind: 'tenant-complaints-board' });
    expect(disputeBodies(DEFAULT_REPORT_SETTINGS, 'DK')[0]).toMatchObject({ kind: 'rent-tribunal' });
  });

  it('refuses bad input with a coded problem per field and changes nothing', async () => {
    const before = await readReportSettings(database.db, propertyId);
    const refused = await saveReportSettings(database.db, propertyId, {
      hotWaterShare: 0.95,
      fuelMix: [{ source: 'biomass', percent: 90 }],
      disputeBodyUrl: 'http://insecure.test',
      unknownField: 1,
    });
    expect(refused.ok).toBe(false);
    if (refused.ok || refused.notFound) throw new Error('expected problems');
    const fields = refused.problems.map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(['hotWaterShare', 'fuelMix', 'disputeBodyUrl']));
    expect(refused.problems.every((p) => p.code === 'invalid_settings')).toBe(true);
    const halfBody = await saveReportSettings(database.db, propertyId, { disputeBodyName: 'Huslejenævnet' });
    expect(halfBody.ok).toBe(false);
    expect(await readReportSettings(database.db, propertyId)).toEqual(before);
  });

  it('answers notFound for an unknown property and writes nothing', async () => {
    expect(await saveReportSettings(database.db, 999_999, { hotWaterShare: 0.2 })).toEqual({
      ok: false,
      notFound: true,
    });
  });
});
