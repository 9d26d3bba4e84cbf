// @ts-check
/**
 * The server's entry points compiled ahead of time, so production starts with plain `node` and needs neither
 * a build nor `tsx` (run by `npm run build`, after `astro build`). One ES module per entry in dist/server-node/,
 * shared code in chunks beside them; packages stay in node_modules (`npm ci --omit=dev` installs them). The files
 * the server reads at run time (locales, migrations, the PGlite worker) stay in the sources: src/server/paths.ts
 * finds them from wherever the code runs.
 */
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/server-node';
rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build({
  entryPoints: ['start', 'serve-api', 'worker', 'cli', 'migrate'].map((name) => `src/server/${name}.ts`),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
console.log(`Server entries compiled into ${outdir}/ in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
