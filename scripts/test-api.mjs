/**
 * `npm run test:api`: the API suite on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL at the same time.
 * Each run keeps about one core busy (vitest runs its files one after another on a 2-core machine), so the two
 * side by side take little longer than the PGlite one alone, where one after the other they took both times
 * (docs/decisions.md). The PGlite run prints as it goes; the PostgreSQL run's output is kept and printed after
 * it, so the two never interleave. Exits non-zero when either run fails. Extra arguments go to both runs.
 */
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const vitest = ['vitest', 'run', '--project', 'api', ...args];
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

/** Runs vitest once; resolves to its exit code, and to its output when `capture`. */
function run(env, capture) {
  return new Promise((resolve) => {
    const child = spawn('npx', vitest, {
      env,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
    }
    child.once('exit', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }),
    );
  });
}

const runs = [run(withoutPostgres, false)];
if (TEST_DATABASE_URL) runs.push(run(process.env, true));
const [pglite, postgres] = await Promise.all(runs);
if (postgres) {
  console.log('\nAPI suite on PostgreSQL (run beside the PGlite one; its output follows)\n');
  process.stdout.write(postgres.output);
}
console.log(
  `\nAPI suite: PGlite ${pglite.code === 0 ? 'passed' : 'FAILED'}` +
    (postgres ? `, PostgreSQL ${postgres.code === 0 ? 'passed' : 'FAILED'}` : ' (PostgreSQL not run: no TEST_DATABASE_URL)'),
);
process.exit(pglite.code !== 0 ? pglite.code : (postgres?.code ?? 0));
