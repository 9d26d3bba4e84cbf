// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import sentry from '@sentry/astro';
import { defineConfig } from 'astro/config';

const sentryDsn = process.env.PUBLIC_SENTRY_DSN;

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
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
  ],
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
  vite: {
    ssr: { external: ['@electric-sql/pglite', '@node-rs/argon2', 'pino', 'postgres', 'nodemailer'] },
  },
});
