// @ts-check
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import node from '@astrojs/node';
import react from '@astrojs/react';
import sentry from '@sentry/astro';
import { defineConfig } from 'astro/config';
import { clientConfigPlugin } from './src/client/configPlugin.ts';

const sentryDsn = process.env.PUBLIC_SENTRY_DSN;

/** Extensions worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
  '.map',
]);

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every compressible file of the client build, once at
 * build time; src/server/http.ts sends them to browsers that accept them.
 * @returns {import('astro').AstroIntegration}
 */
function precompress() {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  /** @param {string} dir @returns {Promise<string[]>} */
  const files = async (dir) => {
    const out = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) out.push(...(await files(path)));
      else if (COMPRESSIBLE.has(extname(entry.name))) out.push(path);
    }
    return out;
  };
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // `dir` is the client output folder for server builds.
        const root = fileURLToPath(dir);
        let raw = 0;
        let brotli = 0;
        const list = await files(root);
        for (const path of list) {
          const data = await readFile(path);
          if (data.length < 256) continue;
          const [b, g] = await Promise.all([
            br(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gz(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${path}.br`, b), writeFile(`${path}.gz`, g)]);
          raw += (await stat(path)).size;
          brotli += b.length;
        }
        logger.info(
          `precompressed ${list.length} files: ${(raw / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`,
        );
      },
    },
  };
}

/**
 * `npm run dev`: the GraphQL backends, the health check and the social form_post are answered by the same handler
 * as in `npm start` (src/server/http.ts createApiHandler), mounted in front of Astro in Vite's dev server, so no
 * backend is mounted twice. It loads through Vite, so it shares the pages' services (one PGlite per process).
 * @returns {import('astro').AstroIntegration}
 */
function apiInDev() {
  return {
    name: 'api-in-dev',
    hooks: {
      'astro:server:setup': ({ server }) => {
        /** @type {Promise<(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void> | undefined} */
        let handler;
        server.middlewares.use((req, res, next) => {
          handler ??= Promise.all([
            server.ssrLoadModule('/src/server/http.ts'),
            server.ssrLoadModule('/src/server/services.ts'),
          ]).then(async ([http, services]) => http.createApiHandler(await services.getApiServices()));
          handler.then((api) => api(req, res, next), next);
        });
      },
    },
  };
}

const temporalShim = fileURLToPath(new URL('./src/client/temporal.ts', import.meta.url));

/**
 * In the browser build, `temporal-polyfill` resolves to src/client/temporal.ts, which uses the browser's own
 * Temporal and downloads the polyfill only where there is none. The server build keeps the package.
 * @returns {import('vite').Plugin}
 */
function nativeTemporalFirst() {
  return {
    name: 'native-temporal-first',
    enforce: 'pre',
    resolveId(id, importer, options) {
      if (id !== 'temporal-polyfill' || options?.ssr || importer === temporalShim) return null;
      return temporalShim;
    },
  };
}

/**
 * Content Security Policy: Astro hashes its own inline scripts per page and sends the policy as a response
 * header (the Node adapter's `staticHeaders` makes it a header, not a <meta>, so `frame-ancestors` works).
 * Styles allow 'unsafe-inline': React islands and ApexCharts set inline styles.
 */
const cspDirectives = /** @type {import('astro').AstroUserConfig['security']} */ ({
  csp: {
    directives: [
      "default-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src 'self'${sentryDsn ? ` ${new URL(sentryDsn).origin}` : ''}`,
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ],
    styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
  },
});

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone', staticHeaders: true }),
  security: cspDirectives,
  integrations: [
    react(),
    // Sentry stays off unless a DSN is configured: nothing is faked.
    ...(sentryDsn
      ? [
          sentry({
            sourceMapsUploadOptions: { enabled: false },
            // Our init files: SPEC §9 sample rates, sendDefaultPii off, events scrubbed (src/lib/privacyScrub.ts).
            clientInitPath: 'src/client/sentry.client.config.ts',
            serverInitPath: 'src/server/sentry.server.config.ts',
          }),
        ]
      : []),
    precompress(),
    apiInDev(),
  ],
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
  vite: {
    plugins: [clientConfigPlugin(), nativeTemporalFirst()],
    ssr: { external: ['@electric-sql/pglite', '@node-rs/argon2', 'pino', 'postgres', 'nodemailer'] },
  },
});
