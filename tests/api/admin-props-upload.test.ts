/**
 * The console's property upload (issue 21): all or nothing, with the problems' lines and fields; a JSON file goes
 * into the caller's organisation. Fixture: tests/api/helpers/adminFixture.ts, plus a heat point and meter on
 * P1's flat (adminProps.ts). The role matrix of the upload: admin-props.test.ts.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apartments, auditLog, properties } from '../../src/server/db/schema.ts';
import { codeOf } from './helpers/accountsApi.ts';
import type { AdminMatrix } from './helpers/adminMatrix.ts';
import { csv, DETAIL, IMPORT, setUpProps } from './helpers/adminProps.ts';

/** An upload's listed problems. */
const problemsOf = (r: { errors?: { extensions?: unknown }[] }) =>
  (r.errors?.[0]?.extensions as { problems?: unknown } | undefined)?.problems;

let m: AdminMatrix;

beforeAll(async () => {
  ({ m } = await setUpProps());
}, 600_000);
afterAll(async () => {
  await m?.database.close();
});

describe('upload: all or nothing, with line and field', () => {
  const counts = async () => ({
    properties: (await m.database.db.select({ n: count() }).from(properties))[0]!.n,
    apartments: (await m.database.db.select({ n: count() }).from(apartments))[0]!.n,
    audits: (await m.database.db.select({ n: count() }).from(auditLog))[0]!.n,
  });

  it('a CSV with a bad line names it and writes nothing', async () => {
    const before = await counts();
    const bad = `${csv('BAD-1', 'U-BAD-1', 'MB-1')}apartment,U-BAD-2,st. th,Fjordvej 2,8000,Aarhus C,0,2
point,U-BAD-2,not-a-quantity,Heat
meter,U-NOPE,Heat,MB-2,2024-01-01T00:00:00Z
`;
    const r = await m.as('orgAdmin', IMPORT, { f: 'CSV', c: bad });
    expect(codeOf(r)).toBe('PROPERTY_FILE_INVALID');
    expect(problemsOf(r)).toEqual(['line 9: apartment "U-NOPE" is not defined on an earlier line']);
    const parsedOk = `${csv('BAD-1', 'U-BAD-1', 'MB-1')}apartment,U-BAD-2,st. th,Fjordvej 2,8000,Aarhus C,0,2
point,U-BAD-2,not-a-quantity,Heat
`;
    const r2 = await m.as('orgAdmin', IMPORT, { f: 'CSV', c: parsedOk });
    expect(problemsOf(r2)).toEqual([
      'line 7 (apartments.1.areaM2): Too small: expected number to be >0',
      'line 8 (apartments.1.measurementPoints.0.quantity): unknown quantity (see SPEC §3)',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('a property number or meter that exists already, and a file that is not JSON, are refused', async () => {
    const before = await counts();
    const taken = await m.as('orgAdmin', IMPORT, { f: 'CSV', c: csv('P1', 'U-NEW-1', 'M-P1-HEAT') });
    expect(problemsOf(taken)).toEqual([
      'property number P1 already exists',
      'meter number M-P1-HEAT already exists',
    ]);
    const notJson = await m.as('orgAdmin', IMPORT, { f: 'JSON', c: '{"account": ' });
    expect(codeOf(notJson)).toBe('PROPERTY_FILE_INVALID');
    expect(String(problemsOf(notJson))).toMatch(/^\(file\): not JSON/);
    expect(await counts()).toEqual(before);
  });

  it('a JSON file is imported into the caller’s organisation', async () => {
    const file = {
      account: 'ignored',
      property: { number: 'J-1', address: 'Jsonvej 1', zipcode: '8000', city: 'Aarhus C' },
      apartments: [
        {
          uniqueId: 'U-J-1',
          apartment: '1. tv',
          address: 'Jsonvej 1, 1. tv',
          zipcode: '8000',
          city: 'Aarhus C',
          areaM2: 60,
          rooms: 2,
          measurementPoints: [
            {
              quantity: 'cold-water-volume',
              name: 'Cold water',
              meters: [{ number: 'CW-J-1', installedAt: '2024-01-01T00:00:00Z' }],
            },
          ],
        },
      ],
    };
    const r = await m.as('orgAdmin', IMPORT, { f: 'JSON', c: JSON.stringify(file) });
    expect(r.errors).toBeUndefined();
    expect(r.data!.importPropertyFile).toMatchObject({
      apartments: 1,
      measurementPoints: 1,
      meters: 1,
      tenancies: 0,
    });
    const [p] = await m.database.db.select().from(properties).where(eq(properties.number, 'J-1'));
    expect(p!.accountId).toBe(m.fx.org1);
    // The new property is the organisation admin's at once; P1's manager does not reach it.
    const id = (r.data!.importPropertyFile as { propertyId: string }).propertyId;
    expect(codeOf(await m.as('orgAdmin', DETAIL, { id }))).toBeUndefined();
    expect(codeOf(await m.as('managerHere', DETAIL, { id }))).toBe('FORBIDDEN');
  });
});
