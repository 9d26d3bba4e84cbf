/**
 * Allocation statements: import (all or nothing), the account backend's fields, the authorised PDF download
 * (with its text extracted and checked against the imported numbers) and the demo statements,
 * on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { allocationStatements, tenancies } from '../../src/server/db/schema.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { seedDemoStatements } from '../../src/server/demo/statements.ts';
import { handleStatementDownload } from '../../src/server/statements/download.ts';
import { importStatementFile, StatementImportError } from '../../src/server/statements/import.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';
import { validStatement } from './helpers/statements.ts';

const valid = validStatement;

function file(content: unknown): string {
  const path = join(tmpdir(), `statement-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe(`allocation statements (${testEngine})`, () => {
  let database: Database;
  let api: TestApi;
  let fx: Fixture;
  const token = async (backend: 'account' | 'tenant', user: { id: number; email: string }) =>
    (await signAccessToken(backend, api.services.keys[backend], user, 300)).token;
  const count = async () =>
    (await database.db.select({ id: allocationStatements.id }).from(allocationStatements)).length;

  beforeAll(async () => {
    database = await freshDatabase();
    api = await createTestApi(database);
    fx = await seedFixture(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('refuses a bad file with every problem listed, and writes nothing', async () => {
    const bad = {
      ...valid,
      variableSharePercent: 59,
      periodEnd: '2026-02-30',
      expenses: [{ ...valid.expenses[0]!, tenantFixed: '9000.00' }, { ...valid.expenses[0]! }],
      unexpected: true,
    };
    const error = await importStatementFile(database.db, file(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatementImportError);
    const message = (error as Error).message;
    expect(message).toContain('periodEnd: is not a calendar date');
    expect(message).toContain('Unrecognized key');
    await expect(
      importStatementFile(database.db, file({ ...valid, variableSharePercent: 59 })),
    ).rejects.toThrow('must add up to 100');
    await expect(
      importStatementFile(
        database.db,
        file({ ...valid, expenses: [{ ...valid.expenses[0]!, tenantFixed: '9000.00' }] }),
      ),
    ).rejects.toThrow('expenses.0.tenantFixed: should be about 10000.00');
    await expect(importStatementFile(database.db, file({ ...valid, balance: '1000.00' }))).rejects.toThrow(
      'balance: is 1000.00 but the shares minus advance payments are 1560.00',
    );
    await expect(importStatementFile(database.db, file('{ not json'))).rejects.toThrow('not valid JSON');
    // One unknown tenancy in a file of two: neither is written.
    await expect(
      importStatementFile(database.db, file({ statements: [valid, { ...valid, tenancy: 'T-NOPE' }] })),
    ).rejects.toThrow('no tenancy "T-NOPE"');
    expect(await count()).toBe(0);
  });

  it('imports a valid file with the balance computed, and refuses the same period twice', async () => {
    const { balance: _omitted, ...withoutBalance } = valid;
    expect(await importStatementFile(database.db, file(withoutBalance))).toEqual({ imported: 1 });
    const [row] = await database.db.select().from(allocationStatements);
    expect(row).toMatchObject({
      fixedAmount: '10200.00',
      variableAmount: '18360.00',
      advancePayments: '27000.00',
      balance: '1560.00',
      objectionDeadline: '2026-10-15',
    });
    await expect(
      importStatementFile(
        database.db,
        file({
          statements: [
            {
              ...valid,
              periodStart: '2024-06-01',
              periodEnd: '2025-05-31',
              objectionDeadline: '2025-10-15',
              balance: undefined,
            },
            valid,
          ],
        }),
      ),
    ).rejects.toThrow('already has a statement for 2025-06-01–2026-05-31; nothing was imported');
    expect(await count()).toBe(1);
  });

  it('fills accountHasStatements and latestAllocationStatement, and lists statements only to members', async () => {
    const query = `query($id: ID!) {
      me { accountHasStatements }
      allTenanciesForCurrentUser { id tenancyId latestAllocationStatement { fileName url periodStartDate periodEndDate expenseTypes } }
      allocationStatements(tenancyId: $id) { id balance currency expenseTypes url }
    }`;
    const [tenancyA] = await database.db.select().from(tenancies).where(eq(tenancies.tenancyId, 'T-A-2025'));
    const alice = await gql<{
      me: { accountHasStatements: boolean };
      allTenanciesForCurrentUser: { latestAllocationStatement: Record<string, unknown> | null }[];
      allocationStatements: { id: string; balance: string; url: string; expenseTypes: string[] }[];
    }>(api.account, query, { id: String(tenancyA!.id) }, await token('account', fx.users.alice));
    expect(alice.errors).toBeUndefined();
    expect(alice.data!.me.accountHasStatements).toBe(true);
    const [statement] = alice.data!.allocationStatements;
    expect(statement).toMatchObject({ balance: '1560.00', expenseTypes: ['heating', 'meter-rental'] });
    expect(statement!.url).toBe(`/api/statements/${statement!.id}/pdf`);
    expect(alice.data!.allTenanciesForCurrentUser[0]!.latestAllocationStatement).toEqual({
      fileName: 'statement-T-A-2025-2025-06-01-2026-05-31.pdf',
      url: statement!.url,
      periodStartDate: '2025-06-01',
      periodEndDate: '2026-05-31',
      expenseTypes: ['heating', 'meter-rental'],
    });

    const bob = await gql<{ me: { accountHasStatements: boolean } }>(
      api.account,
      query,
      { id: String(tenancyA!.id) },
      await token('account', fx.users.bob),
    );
    expect(errorCode(bob)).toBe('FORBIDDEN');
    const bobMe = await gql<{ me: { accountHasStatements: boolean } }>(
      api.account,
      '{ me { accountHasStatements } }',
      {},
      await token('account', fx.users.bob),
    );
    expect(bobMe.data!.me.accountHasStatements).toBe(false);
  });

  const download = async (id: string, bearer: string | null, lang?: string) =>
    handleStatementDownload(
      api.services,
      new Request(`http://app/api/statements/${id}/pdf${lang ? `?lang=${lang}` : ''}`, {
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      }),
      id,
    );

  it('serves the PDF to a member, with the imported numbers in the numbered sections', async () => {
    const [row] = await database.db.select().from(allocationStatements);
    const response = await download(String(row!.id), await token('account', fx.users.alice), 'en');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(
      'statement-T-A-2025-2025-06-01-2026-05-31.pdf',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    for (const section of [
      "1. The property's heating costs",
      '2. How the costs are shared',
      '3. Your share',
      '4. Advance payments',
      '5. Result',
      '6. Degree days',
      '7. Your right to object',
    ])
      expect(flat).toContain(section);
    expect(flat).toContain('DKK 102,000.00'); // property total
    expect(flat).toContain('DKK 28,560.00'); // the tenant's share
    expect(flat).toContain('DKK 27,000.00'); // advance payments
    expect(flat).toContain('You pay in addition: DKK 1,560.00');
    expect(flat).toContain('40 % fixed, shared by floor area: your 50 m² of 200 m²');
    expect(flat).toContain('60 % variable, shared by consumption: your 300 of 1,000 allocator units');
    expect(flat).toContain('Degree days in the period: 2,754. In a normal year: 2,906.');
    expect(flat).toContain('no later than 15 October 2026');

    // Alice's language is Danish: without ?lang the PDF is in Danish.
    const danish = await download(String(row!.id), await token('account', fx.users.alice));
    const da = (
      await extractText(await getDocumentProxy(new Uint8Array(await danish.arrayBuffer())), {
        mergePages: true,
      })
    ).text;
    expect(da).toContain('Varmeregnskab');
    expect(da).toContain('7. Indsigelse');
  });

  it("refuses another tenant's statement and unknown ids alike, and needs an account token", async () => {
    const [row] = await database.db.select().from(allocationStatements);
    const other = await download(String(row!.id), await token('account', fx.users.bob));
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({
      errors: [{ message: 'Adgang ikke tilladt', extensions: { code: 'FORBIDDEN' } }],
    });
    const unknown = await download('999999', await token('account', fx.users.alice));
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({
      errors: [{ message: 'Adgang ikke tilladt', extensions: { code: 'FORBIDDEN' } }],
    });
    expect((await download(String(row!.id), null)).status).toBe(401);
    // A token of the other backend is no key here.
    expect((await download(String(row!.id), await token('tenant', fx.users.alice))).status).toBe(401);
  });
});

describe(`demo statements (${testEngine})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    await seedDemo(database.db, { now: new Date('2026-11-21T10:00:00Z'), days: 2, apartments: 4 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives the demo tenancies two heating years of valid statements, once', async () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const added = await seedDemoStatements(database.db, now);
    expect(added).toBeGreaterThan(0);
    expect(await seedDemoStatements(database.db, now)).toBe(0);
    const rows = await database.db.execute(
      sql`SELECT period_start::text AS start, count(*)::int AS n FROM allocation_statements GROUP BY 1 ORDER BY 1`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      start: string;
      n: number;
    }[];
    expect(list.map((r) => r.start)).toEqual(['2024-06-01', '2025-06-01']);
  });
});
