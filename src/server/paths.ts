/**
 * The app's folder (where package.json, locales/ and src/server/db/migrations are), found from this module's
 * own place by walking up: the same answer whether the code runs from its sources (tsx), from the ahead-of-time
 * server build (dist/server-node/, scripts/build-server.mjs) or from Astro's server bundle (dist/server/).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findAppRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'locales'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

export const appRoot = findAppRoot(dirname(fileURLToPath(import.meta.url)));
