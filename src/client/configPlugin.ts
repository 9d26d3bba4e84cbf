/**
 * Parses PUBLIC_* at build time and inlines the result as `__CLIENT_CONFIG__`, so zod stays out of the
 * browser; a bad variable fails the build with the same message as on the server.
 */
import { loadEnv, type Plugin } from 'vite';
import { parseClientConfig } from './configSchema.ts';

/** The Vite plugin (astro.config.mjs adds it). */
export function clientConfigPlugin(): Plugin {
  return {
    name: 'tenant-app:client-config',
    config(_, { mode }) {
      const env = { ...loadEnv(mode, process.cwd(), 'PUBLIC_') };
      return { define: { __CLIENT_CONFIG__: JSON.stringify(parseClientConfig(env)) } };
    },
  };
}
