/**
 * Allocation statements: import (all or nothing), the account backend's fields and the authorised PDF download
 * (with its text extracted and checked against the imported numbers), on PGlite and on PostgreSQL
 * (TEST_DATABASE_URL). The demo statements: statements-demo.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { allocationStatements, tenancies } from '../../src/server/db/schema.ts';
import { handleStatementDownload } from '../../src/server/statements/download.ts';
import { importStatementFile, StatementImportError } from '../../src/server/statements/import.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';
import { validStatement } from './helpers/statements.ts';

const valid = validStatement;
/** When the tests' statements are made: a Danish deadline must then be 2026-08-01 or later (6 weeks). */
const IMPORT_NOW = new Date('2026-06-20T10:00:00Z');

function file(content: unknown): string {
  const path = join(tmpdir(), `statement-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe(`allocation statements (${testEngine})`, () => {
  let database: Database;
  let api: TestApi;
  const importFile = (path: string) => importStatementFile(database.db, path, IMPORT_NOW);
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
    const error = await importFile(file(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatementImportError);
    const message = (error as Error).message;
    expect(message).toContain('periodEnd: is not a calendar date');
    expect(message).toContain('Unrecognized key');
    await expect(importFile(file({ ...valid, variableSharePercent: 59 }))).rejects.toThrow(
      'must add up to 100',
    );
    await expect(
      importFile(file({ ...valid, expenses: [{ ...valid.expenses[0]!, tenantFixed: '9000.00' }] })),
    ).rejects.toThrow('expenses.0.tenantFixed: should be about 10000.00');
    await expect(importFile(file({ ...valid, balance: '1000.00' }))).rejects.toThrow(
      'balance: is 1000.00 but the shares minus advance payments are 1560.00',
    );
    await expect(importFile(file('{ not json'))).rejects.toThrow('not valid JSON');
    // One unknown tenancy in a file of two: neither is written.
    await expect(importFile(file({ statements: [valid, { ...valid, tenancy: 'T-NOPE' }] }))).rejects.toThrow(
      'no tenancy "T-NOPE"',
    );
    expect(await count()).toBe(0);
  });

  it('imports a valid file with the balance computed, and refuses the same period twice', async () => {
    const { balance: _omitted, ...withoutBalance } = valid;
    expect(await importFile(file(withoutBalance))).toEqual({ imported: 1 });
    const [row] = await database.db.select().from(allocationStatements);
    expect(row).toMatchObject({
      fixedAmount: '10200.00',
      variableAmount: '18360.00',
      advancePayments: '27000.00',
      balance: '1560.00',
      objectionDeadline: '2026-10-15',
    });
    await expect(
      importFile(
        file({
          statements: [
            {
              ...valid,
              periodStart: '2024-06-01',
              periodEnd: '2025-05-31',
              objectionDeadline: '2026-10-15',
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

    // Sections 8–11 (issue 22): prices, the normalised user, the heat supply, fees and bodies.
    for (const section of [
      '8. Prices',
      '9. Your use compared',
      '10. Heat supply, taxes and fees',
      '11. Where to turn',
    ])
      expect(flat).toContain(section);
    // Heating: 60 % of 100,000.00 over 1,000 units, 40 % over 200 m²; meter rental 60 % and 40 % of 2,000.00.
    expect(flat).toContain('Heating DKK 60.00 DKK 200.00');
    expect(flat).toContain('Meter rental and reading DKK 1.20 DKK 4.00');
    // 1,000 units over 200 m², for 50 m²: 250 units; Alice's 300 are 20 % more.
    expect(flat).toContain(
      "A home of your size using the building's average per m² would have used 250 allocator units. You used 300 allocator units (+20 %).",
    );
    expect(flat).toContain('There is no statement of the previous period to compare with.');
    expect(flat).toContain('Forbrugerrådet Tænk, https://taenk.dk');

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

  const older = { ...valid, periodStart: '2023-06-01', periodEnd: '2024-05-31', balance: undefined };
  it('refuses a deadline before the statement is made, and one under 6 weeks after it in Denmark', async () => {
    const before = await importFile(file({ ...older, objectionDeadline: '2026-06-19' })).catch(
      (e: unknown) => e,
    );
    expect((before as Error).message).toContain(
      'objectionDeadline 2026-06-19 is before the statement is made (2026-06-20)',
    );
    await expect(importFile(file({ ...older, objectionDeadline: '2026-07-31' }))).rejects.toThrow(
      'objectionDeadline 2026-07-31 must be at least 6 weeks after the statement reaches the tenant: 2026-08-01 or later',
    );
    const rows = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodStart, '2023-06-01'));
    expect(rows).toHaveLength(0);
  });
  it("compares with the previous period's statement at this period's weather", async () => {
    const previous = {
      ...valid,
      periodStart: '2024-06-01',
      periodEnd: '2025-05-31',
      consumption: { unit: 'hca-unit' as const, tenant: 250, property: 1000 },
      expenses: [
        {
          type: 'heating' as const,
          propertyTotal: '100000.00',
          tenantFixed: '10000.00',
          tenantVariable: '15000.00',
        },
        {
          type: 'meter-rental' as const,
          propertyTotal: 2000,
          tenantFixed: '200.00',
          tenantVariable: '300.00',
        },
      ],
      degreeDays: { period: 2500, normalYear: 2906 },
      balance: undefined,
    };
    expect(await importFile(file(previous))).toEqual({ imported: 1 });
    const [row] = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodStart, '2025-06-01'));
    const response = await download(String(row!.id), await token('account', fx.users.alice), 'en');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.arrayBuffer())), {
      mergePages: true,
    });
    // 250 × (0.25 + 0.75 × 2,754 / 2,500) = 269.05; 300 against 269.05 is +11.5 %.
    expect(text.replace(/\s+/g, ' ')).toContain(
      "In the previous period (1 June 2024 – 31 May 2025) you used 250 allocator units; at this period's weather that is 269 allocator units (the hot-water share, 25 %, is not corrected). This period: 300 allocator units (+12 %).",
    );
  });

  it('takes the first lawful day, and stores when the statement was made', async () => {
    expect(await importFile(file({ ...older, objectionDeadline: '2026-08-01' }))).toEqual({ imported: 1 });
    const [row] = await database.db
      .select()
      .from(allocationStatements)
      .where(eq(allocationStatements.periodStart, '2023-06-01'));
    expect(row).toMatchObject({ objectionDeadline: '2026-08-01' });
    expect(row!.createdAt.toISOString()).toBe(IMPORT_NOW.toISOString());
  });
});
