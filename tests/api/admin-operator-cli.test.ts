/**
 * The CLI's `operator create` (`npm run cli -- operator create`): an organisation admin in a named organisation,
 * a manager of given properties, SPEC §8's email rule, bad input refused; audited as the CLI. The console's login:
 * admin-auth.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/server/admin/cli.ts';
import type { Database } from '../../src/server/db/client.ts';
import { auditLog, users } from '../../src/server/db/schema.ts';
import { CliInputError } from '../../src/server/reports/cli.ts';
import { call } from './helpers/accountsApi.ts';
import { A } from './helpers/adminApi.ts';
import { type AdminFixture, setUpAdminApi } from './helpers/adminFixture.ts';
import type { TestApi } from './helpers/api.ts';

let database: Database;
let api: TestApi;
let fx: AdminFixture;

beforeAll(async () => {
  ({ database, fx, api } = await setUpAdminApi());
  // Generous: on a loaded machine, migrating and hashing the fixture's passwords can take minutes.
}, 600_000);
afterAll(async () => {
  await database?.close();
});

describe('npm run cli -- operator create', () => {
  // The command's module, run in-process against this test's database (cli.ts registers it with one line).
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      await runOperatorCommand(args[0]!, args.slice(1), async () => database.db);
      return { ok: true, out: lines.join('\n') };
    } catch (err) {
      return { ok: false, out: (err as Error).message, cli: err instanceof CliInputError };
    } finally {
      console.log = log;
    }
  };

  it('creates an organisation admin in a named organisation, a manager of given properties, and refuses bad input', async () => {
    const first = await run('operator', 'create', 'first@org.test', '--organisation', 'Boligselskabet Nord');
    expect(first.ok).toBe(true);
    expect(first.out).toContain('Created first@org.test (org_admin) in "Boligselskabet Nord"');
    const password = /First password \(shown once\): (\S{12,})/.exec(first.out)![1]!;
    const login = await call<{ operatorLogin: { next: string } }>(
      api.admin,
      A.login,
      { email: 'first@org.test', password },
      { ip: '198.51.100.50' },
    );
    expect(login.data!.operatorLogin.next).toBe('TOTP_SETUP_REQUIRED');
    const again = await run('operator', 'create', 'first@org.test', '--organisation', 'Boligselskabet Nord');
    expect(again).toMatchObject({ ok: false, cli: true, out: 'An operator with that email exists already' });
    const tenant = await run('operator', 'create', fx.tenant.email, '--organisation', 'Org One');
    expect(tenant).toMatchObject({ ok: false, cli: true, out: 'Email is already in use by the Tenant App' });
    const manager = await run(
      'operator',
      'create',
      'm@org1.test',
      '--organisation',
      'Org One',
      '--role',
      'property_manager',
      '--property',
      'P2',
    );
    expect(manager.ok).toBe(true);
    const [row] = await database.db.select().from(users).where(eq(users.email, 'm@org1.test'));
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectId, String(row!.id)));
    expect(entry).toMatchObject({
      action: 'operator.create',
      actor: expect.stringMatching(/^cli:/),
      accountId: fx.org1,
    });
    expect(entry!.after).toMatchObject({ role: 'property_manager', propertyIds: [fx.p2] });
    expect(
      await run('operator', 'create', 'x@org1.test', '--organisation', 'Org One', '--role', 'king'),
    ).toMatchObject({
      ok: false,
      out: '--role must be org_admin or property_manager',
    });
    expect(
      await run('operator', 'create', 'x@org1.test', '--organisation', 'Org One', '--property', 'P3'),
    ).toMatchObject({
      ok: false,
      out: "Property P3 is another organisation's.",
    });
    expect(
      await run(
        'operator',
        'create',
        'x@org1.test',
        '--organisation',
        'Org One',
        '--role',
        'property_manager',
      ),
    ).toMatchObject({
      ok: false,
      out: 'A property manager needs at least one property',
    });
  });
});
