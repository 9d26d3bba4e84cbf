/** import-property's CSV form: the documented example, line-numbered problems, nothing written on error. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PropertyImportError } from '../../src/server/account/importProperty.ts';
import { importPropertyCsv, parsePropertyCsv } from '../../src/server/account/importPropertyCsv.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  apartments,
  measurementPoints,
  meters,
  properties,
  propertySettings,
  tenancies,
} from '../../src/server/db/schema.ts';
import { freshDatabase } from './helpers/db.ts';

const EXAMPLE = readFileSync('docs/examples/property.csv', 'utf8');

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

const counts = async () =>
  Promise.all(
    [properties, apartments, measurementPoints, meters, tenancies].map(
      async (table) => (await database.db.select({ n: count() }).from(table))[0]!.n,
    ),
  );

const problemsOf = async (text: string) => {
  const err = await importPropertyCsv(database.db, text).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PropertyImportError);
  return (err as PropertyImportError).problems;
};

describe('import-property CSV', () => {
  it('turns the documented example into the JSON form', () => {
    const { file } = parsePropertyCsv(EXAMPLE);
    expect(file).toMatchObject({
      account: 'Boligselskabet Fjorden',
      property: {
        number: '4001',
        country: 'DK',
        settings: ['HOURLY_VALUES'],
        contactEmail: 'drift@fjorden.example',
      },
      apartments: [
        {
          uniqueId: 'U-4001-1',
          address: 'Fjordvej 2, st. tv',
          areaM2: 72.5,
          rooms: 3,
          measurementPoints: [
            { quantity: 'heat-energy', name: 'Heat', room: null, meters: [{ number: 'H-4001-1' }] },
            { quantity: 'indoor-temperature', room: 'Living room', meters: [{ number: 'T-4001-1' }] },
          ],
          tenancies: [{ tenancyId: 'T-4001-1', tenant: 'Jens Hansen', start: '2025-04-01', end: null }],
        },
        { uniqueId: 'U-4001-2', tenancies: [{ tenancyId: 'T-4001-2', tenant: '', end: '2026-07-31' }] },
      ],
    });
  });

  it('refuses a bad file whole, naming the line of every problem, and writes nothing', async () => {
    const before = await counts();
    const lines = EXAMPLE.split('\n');
    const bad = lines
      .map((line) => {
        if (line.startsWith('apartment,U-4001-2')) return line.replace(',54,', ',fifty,');
        if (line.startsWith('point,U-4001-2')) return 'point,U-4001-2,beer-volume,Hot water';
        if (line.startsWith('tenancy,U-4001-2')) return 'tenancy,U-4001-2,T-4001-2,,2024-08-01,2020-01-01';
        return line;
      })
      .join('\n');
    const lineOf = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix)) + 1;
    const problems = await problemsOf(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^line ${lineOf('apartment,U-4001-2')} \\(apartments\\.1\\.areaM2\\): `),
        ),
        `line ${lineOf('point,U-4001-2')} (apartments.1.measurementPoints.0.quantity): unknown quantity (see SPEC §3)`,
        `line ${lineOf('tenancy,U-4001-2')} (apartments.1.tenancies.0.end): end is before start`,
      ]),
    );
    // Structure errors: an unknown kind, references to undefined apartments and points, too many columns.
    const structural = (await importPropertyCsv(
      database.db,
      [
        'property,Acct,4002,,Vej 1,8000,Aarhus C',
        'flat,U-1',
        'apartment,U-4002-1,1,Vej 1,8000,Aarhus C,50,2',
        'meter,U-4002-1,Heat,H-1,2024-01-01T00:00:00Z',
        'tenancy,U-9,T-9,,2024-01-01',
        'point,U-4002-1,heat-energy,Heat,,,extra',
      ].join('\n'),
    ).catch((e: unknown) => e)) as PropertyImportError;
    expect(structural.problems).toEqual([
      'line 2: unknown record "flat" (expected property, apartment, point, meter, tenancy)',
      'line 4: measurement point "Heat" of apartment "U-4002-1" is not defined on an earlier line',
      'line 5: apartment "U-9" is not defined on an earlier line',
      'line 6: a point has at most 5 columns after "point"',
    ]);
    const malformed = await problemsOf('property,Acct,4003\napartment,"U-1\n');
    expect(malformed[0]).toMatch(/^line \d+: malformed CSV: /);
    expect(await problemsOf('apartment,U-1,1,Vej 1,8000,Aarhus C,50,2')).toContain(
      'the file has no "property" line',
    );
    expect(await counts()).toEqual(before);
  });

  it('imports the example in one transaction; a second import names the clashes', async () => {
    const result = await importPropertyCsv(database.db, EXAMPLE);
    expect(result).toMatchObject({ apartments: 2, measurementPoints: 3, meters: 3, tenancies: 2 });
    const [meter] = await database.db.select().from(meters).where(eq(meters.number, 'W-4001-2'));
    expect(meter!.legacyKind).toBe('hotwater');
    const [setting] = await database.db
      .select()
      .from(propertySettings)
      .where(eq(propertySettings.propertyId, result.propertyId));
    expect(setting!.kind).toBe('HOURLY_VALUES');
    const again = await problemsOf(EXAMPLE);
    expect(again).toContain('property number 4001 already exists');
    expect(again).toContain('tenancyId T-4001-2 already exists');
  });
});

describe('the cli process with a CSV file', () => {
  it('imports by the .csv extension and exits 1 with line numbers on a bad file', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-csv-'));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      });
    // The CLI never migrates; the deploy step gives the new folder its schema.
    const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/migrate.ts'], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
    expect(migrated.status).toBe(0);
    const bad = join(dataDir, 'bad.csv');
    writeFileSync(bad, EXAMPLE.replace('point,U-4001-2,hot-water-volume', 'point,U-4001-2,beer-volume'));
    const refused = run('import-property', bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('(apartments.1.measurementPoints.0.quantity): unknown quantity');
    expect(refused.stderr).toMatch(/line \d+ \(apartments/);
    const good = join(dataDir, 'property.csv');
    writeFileSync(good, EXAMPLE);
    const imported = run('import-property', good);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('2 apartments, 3 measurement points, 3 meters, 2 tenancies');
  }, 600_000);
});
