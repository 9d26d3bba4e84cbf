/**
 * The app's PostgreSQL sessions run without parallel workers and without JIT (APP_SESSION_SETTINGS), on the API
 * pool and on a background connection alike; a plain connection to the same server keeps the server's defaults.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPostgres, type Database, openBackgroundConnection } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

const SETTINGS = sql`SELECT current_setting('max_parallel_workers_per_gather') AS parallel, current_setting('jit') AS jit`;

it.skipIf(testEngine !== 'postgres')(
  'sets no parallel workers and no JIT on every app connection',
  async () => {
    expect((await queryRows(database.db, SETTINGS))[0]).toEqual({ parallel: '0', jit: 'off' });
    const background = await openBackgroundConnection(database);
    try {
      expect((await queryRows(background.db, SETTINGS))[0]).toEqual({ parallel: '0', jit: 'off' });
    } finally {
      await background.close();
    }
    // The other side: a connection that is not the app's has the server's own defaults.
    const plain = await connectPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
    try {
      const [row] =
        await plain`SELECT current_setting('max_parallel_workers_per_gather') AS parallel, current_setting('jit') AS jit`;
      expect(row).not.toEqual({ parallel: '0', jit: 'off' });
    } finally {
      await plain.end();
    }
  },
);
