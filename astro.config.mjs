// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import sentry from '@sentry/astro';
import { defineConfig } from 'astro/config';
import { clientConfigPlugin } from './src/client/configPlugin.ts';

const sentryDsn = process.env.PUBLIC_SENTRY_DSN;

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [
    react(),
    // Sentry stays off unless a DSN is configured: nothing is faked.
    ...(sentryDsn ? [sentry({ dsn: sentryDsn, sourceMapsUploadOptions: { enabled: false } })] : []),
  ],
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
  vite: {
    plugins: [clientConfigPlugin()],
    ssr: { external: ['@electric-sql/pglite', '@node-rs/argon2', 'pino', 'postgres', 'nodemailer'] },
  },
});
