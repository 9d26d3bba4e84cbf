/** `.env.example` claims to hold every setting the server reads: each key of the configuration's schema. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_CONFIG_KEYS } from '../../src/server/config.ts';

describe('.env.example', () => {
  it('names every setting of the server configuration', () => {
    const listed = new Set(
      [...readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]),
    );
    expect(SERVER_CONFIG_KEYS.length).toBeGreaterThan(50);
    expect(SERVER_CONFIG_KEYS.filter((key) => !listed.has(key))).toEqual([]);
  });
});
