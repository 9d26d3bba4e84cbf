import type { ConfigEnv, UserConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientConfigPlugin } from '../../src/client/configPlugin.ts';

type ConfigHook = (config: UserConfig, env: ConfigEnv) => UserConfig;
const run = () => (clientConfigPlugin().config as ConfigHook)({}, { mode: 'production', command: 'build' });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('clientConfigPlugin', () => {
  it('inlines the parsed PUBLIC_* configuration for the browser', () => {
    vi.stubEnv('PUBLIC_LANGUAGES', 'da, nb');
    vi.stubEnv('PUBLIC_TITLE', ' Varme ');
    const inlined = JSON.parse(String(run().define?.__CLIENT_CONFIG__));
    expect(inlined).toMatchObject({ title: 'Varme', languages: ['da', 'nb'], defaultLanguage: 'da' });
  });

  it('fails the build with every bad variable named', () => {
    vi.stubEnv('PUBLIC_LANGUAGES', 'da,xx');
    expect(run).toThrow(/PUBLIC_LANGUAGES: unknown language "xx"/);
  });
});
