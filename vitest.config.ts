import { defineConfig } from 'vitest/config';
import { clientConfigPlugin } from './src/client/configPlugin.ts';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'model', include: ['tests/model/**/*.test.ts'], environment: 'node' } },
      {
        // Islands rendered with Testing Library on happy-dom, their backend answered per GraphQL document.
        // The browser build's client config (__CLIENT_CONFIG__), as astro.config.mjs defines it.
        plugins: [clientConfigPlugin()],
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/component/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // One migrated database per run, copied by each file (tests/api/helpers/db.ts).
          globalSetup: ['tests/api/helpers/templateDatabase.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
