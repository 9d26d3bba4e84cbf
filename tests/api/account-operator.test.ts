/** The operator CLI's account commands: import-property, activation-code, invite, deactivate, impersonate. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProperty, PropertyImportError } from '../../src/server/account/importProperty.ts';
import {
  deactivateUser,
  inviteAsOperator,
  issueActivationCode,
  OperatorError,
} from '../../src/server/account/operator.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  activationCodes,
  apartments,
  mailOutbox,
  meters,
  properties,
  tenancies,
  users,
} from '../../src/server/db/schema.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { type AccountsFixture, PASSWORD, seedAccountsFixture } from './helpers/accountsFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let api: TestApi;
let fx: AccountsFixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAccountsFixture(database.db);
  api = await createTestApi(database, { TRUST_PROXY: '1' });
});
afterAll(async () => {
  await database?.close();
});

/** The example of docs/notes/accounts.md. */
const EXAMPLE = {
  account: 'Boligselskabet Havnen',
  property: {
    number: '3001',
    name: 'Havnehuset',
    address: 'Havnegade 10',
    zipcode: '8000',
    city: 'Aarhus C',
    contactPhone: '+45 70 20 30 40',
    contactEmail: 'drift@havnen.example',
    settings: ['HOURLY_VALUES'],
  },
  apartments: [
    {
      uniqueId: 'U-3001-1',
      apartment: 'st. tv',
      address: 'Havnegade 10, st. tv',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: 72.5,
      rooms: 3,
      measurementPoints: [
        {
          quantity: 'heat-energy',
          name: 'Heat',
          meters: [{ number: 'H-3001-1', installedAt: '2024-01-01T00:00:00Z' }],
        },
        {
          quantity: 'indoor-temperature',
          name: 'Living room temperature',
          room: 'Living room',
          meters: [{ number: 'T-3001-1', installedAt: '2024-01-01T00:00:00Z' }],
        },
      ],
      tenancies: [{ tenancyId: 'T-3001-1', tenant: 'Jens Hansen', start: '2025-04-01' }],
    },
    {
      uniqueId: 'U-3001-2',
      apartment: 'st. th',
      address: 'Havnegade 10, st. th',
      zipcode: '8000',
      city: 'Aarhus C',
      areaM2: 54,
      rooms: 2,
      measurementPoints: [
        {
          quantity: 'hot-water-volume',
          name: 'Hot water',
          meters: [{ number: 'W-3001-2', installedAt: '2024-01-01T00:00:00+01:00' }],
        },
      ],
      tenancies: [{ tenancyId: 'T-3001-2', start: '2024-08-01', end: '2026-07-31' }],
    },
  ],
};

const countOf = async (table: typeof properties | typeof apartments | typeof meters | typeof tenancies) =>
  (await database.db.select({ n: count() }).from(table))[0]!.n;

describe('import-property', () => {
  it('writes nothing when any part of the file is wrong, and lists every problem', async () => {
    const before = await Promise.all([
      countOf(properties),
      countOf(apartments),
      countOf(meters),
      countOf(tenancies),
    ]);
    const bad = structuredClone(EXAMPLE);
    const second = bad.apartments[1]!;
    second.areaM2 = 0;
    second.measurementPoints[0]!.quantity = 'beer-volume';
    (second.tenancies[0] as { end?: string }).end = '2020-01-01';
    const err = await importProperty(database.db, bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PropertyImportError);
    const problems = (err as PropertyImportError).problems.join('\n');
    expect(problems).toContain('apartments.1.areaM2');
    expect(problems).toContain('apartments.1.measurementPoints.0.quantity: unknown quantity');
    expect(problems).toContain('apartments.1.tenancies.0.end: end is before start');

    const clash = structuredClone(EXAMPLE);
    clash.apartments[1]!.tenancies[0]!.tenancyId = 'T-A';
    clash.apartments[1]!.uniqueId = 'U-3001-1';
    const err2 = (await importProperty(database.db, clash).catch((e: unknown) => e)) as PropertyImportError;
    expect(err2.problems).toEqual([
      'apartment uniqueId U-3001-1 appears more than once',
      'tenancyId T-A already exists',
    ]);
    expect(
      await Promise.all([countOf(properties), countOf(apartments), countOf(meters), countOf(tenancies)]),
    ).toEqual(before);
  });

  it('imports the documented example in one go; a second import of it is refused', async () => {
    const result = await importProperty(database.db, EXAMPLE);
    expect(result).toMatchObject({ apartments: 2, measurementPoints: 3, meters: 3, tenancies: 2 });
    const [meter] = await database.db.select().from(meters).where(eq(meters.number, 'W-3001-2'));
    expect(meter!.legacyKind).toBe('hotwater');
    const again = (await importProperty(database.db, EXAMPLE).catch(
      (e: unknown) => e,
    )) as PropertyImportError;
    expect(again.problems).toContain('property number 3001 already exists');
  });
});

describe('activation-code, invite, deactivate', () => {
  it('activation-code makes a new random 12-letter code that a tenant can use', async () => {
    const { code, expiresAt } = await issueActivationCode(database.db, 'T-3001-1');
    expect(code).toMatch(/^[A-Z]{12}$/);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const [row] = await database.db.select().from(activationCodes).where(eq(activationCodes.code, code));
    expect(row).toBeTruthy();
    const second = await issueActivationCode(database.db, 'T-3001-1');
    expect(second.code).not.toBe(code);
    await expect(issueActivationCode(database.db, 'T-NOPE')).rejects.toBeInstanceOf(OperatorError);
  });

  it('invite mails the code (to the outbox here) and refuses bad input', async () => {
    const done = await inviteAsOperator(api.services, database.db, 'T-3001-2', 'New.Tenant@example.test');
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'new.tenant@example.test'));
    expect(mail!.body).toContain(done.code);
    expect(mail!.body).toContain('/signup?activationCode=');
    await expect(inviteAsOperator(api.services, database.db, 'T-3001-2', 'not an email')).rejects.toThrow(
      'not a valid email',
    );
    await expect(
      inviteAsOperator(api.services, database.db, 'T-3001-2', 'new.tenant@example.test'),
    ).rejects.toThrow('pending invitation');
    await expect(inviteAsOperator(api.services, database.db, 'T-A', fx.users.tenantA.email)).rejects.toThrow(
      'already on tenancy',
    );
  });

  it('deactivate refuses the user on every request and ends their sessions', async () => {
    const login = await call<{ tokenAuth: { token: string; refreshToken: string } }>(
      api.account,
      Q.tokenAuth,
      {
        email: fx.users.adminB.email,
        password: PASSWORD,
      },
    );
    const user = await deactivateUser(database.db, ` ${fx.users.adminB.email.toUpperCase()} `);
    expect(user.id).toBe(fx.users.adminB.id);
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.isActive).toBe(false);
    expect(codeOf(await call(api.account, Q.tenancies, {}, { token: login.data!.tokenAuth.token }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(codeOf(await call(api.account, Q.accountRefresh, { t: login.data!.tokenAuth.refreshToken }))).toBe(
      'TOKEN_REVOKED',
    );
    await expect(deactivateUser(database.db, 'nobody@test.test')).rejects.toBeInstanceOf(OperatorError);
  });
});

// Each CLI run is a new process (tsx, then the embedded database): about 2 s alone, but on a loaded 2-core machine
// a CI run saw six of them outlast 120 s. The limits are generous so that only a hang fails, never a slow machine.
describe('the cli process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cli-test-'));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
  it('prints --help for each account command and exits 0', () => {
    for (const command of ['import-property', 'activation-code', 'invite', 'deactivate', 'impersonate']) {
      const r = run(command, '--help');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`npm run cli -- ${command}`);
    }
  }, 600_000);
  it('exits non-zero with a clear message on bad input', () => {
    const missing = run('invite', 'T-1');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Usage: npm run cli -- invite <tenancy> <email>');
    const noFile = run('import-property', '/nonexistent/file.json');
    expect(noFile.status).toBe(1);
    expect(noFile.stderr).toContain('No such file');
    const file = join(dataDir, 'broken.json');
    writeFileSync(file, '{ not json');
    const broken = run('import-property', file);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('is not valid JSON');
  }, 600_000);
  it('imports a file, issues a code and an impersonation link against its own database', () => {
    // The CLI never migrates: on a new folder it refuses, and the deploy step gives it its schema.
    const behind = run('activation-code', 'T-3001-1');
    expect(behind.status).toBe(1);
    expect(behind.stderr).toContain('Run `npm run db:migrate`');
    const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/migrate.ts'], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
    expect(migrated.stdout).toContain('schema current');
    const file = join(dataDir, 'property.json');
    writeFileSync(file, JSON.stringify(EXAMPLE));
    const imported = run('import-property', file);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('2 apartments, 3 measurement points, 3 meters, 2 tenancies');
    const code = run('activation-code', 'T-3001-1');
    expect(code.stdout).toMatch(/Activation code for tenancy T-3001-1: [A-Z]{12} \(valid until /);
    const unknown = run('impersonate', 'nobody@example.test');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user with the email nobody@example.test');
  }, 600_000);
});
