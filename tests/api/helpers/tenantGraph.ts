/**
 * What the tenantGraph API test files share (tenantGraph, tenantGraph-access): the shared fixture in a fresh
 * database per file, tokens for Alice, Bob and the previous tenant, and the graph document and calls.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { signAccessToken } from '../../../src/server/auth/tokens.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { createTestApi, gql, type TestApi } from './api.ts';
import { freshDatabase } from './db.ts';
import { type Fixture, seedFixture } from './fixtures.ts';

export const GRAPH = `query ($graph: TenantGraphInput!) {
  tenantGraph(graph: $graph) {
    timestamps partial
    graphs { type object { id kind unit { id unitUniqueId tenantName } measurementPoint { id room quantity } group { meter { number } } }
      consumption { quantityDescriptor { quantity normalized expressedAs } values relatedValues { type } } }
  }
}`;

export interface GraphData {
  tenantGraph: {
    timestamps: string[];
    partial: boolean[];
    graphs: Array<{
      type: string;
      object: {
        id: string;
        kind: string;
        unit: { id: string; tenantName: string } | null;
        measurementPoint: { room: string } | null;
      };
      consumption: Array<{
        quantityDescriptor: { quantity: string; normalized: boolean; expressedAs: string | null };
        values: (number | null)[];
      }>;
    }>;
  };
}

// Set by setUpGraphFixture's beforeAll; importers read them through ES live bindings.
export let database: Database;
export let api: TestApi;
export let fx: Fixture;
export const tokens: Record<'alice' | 'bob' | 'previous', string> = { alice: '', bob: '', previous: '' };

/** The fixture in a fresh database for the calling test file, with its tenants' tokens; closed after the file. */
export function setUpGraphFixture(): void {
  beforeAll(async () => {
    database = await freshDatabase();
    fx = await seedFixture(database.db);
    api = await createTestApi(database);
    for (const name of ['alice', 'bob', 'previous'] as const) {
      const { token } = await signAccessToken('tenant', api.services.keys.tenant, fx.users[name], 300);
      tokens[name] = token;
    }
  });
  afterAll(async () => {
    await database?.close();
  });
}

export type GraphInput = {
  resolution: string;
  periodBegin: string;
  periodEnd: string;
  objects?: Array<{ kind: string; id: string | number }>;
  quantities?: string[];
  graphType?: string;
  normalized?: boolean;
};

export async function graph(input: GraphInput, who: keyof typeof tokens = 'alice') {
  return gql<GraphData>(
    api.tenant,
    GRAPH,
    {
      graph: {
        graphType: 'HOURLY_VALUES',
        objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
        quantities: ['heat-energy'],
        ...input,
      },
    },
    tokens[who],
  );
}

export async function values(input: GraphInput, who: keyof typeof tokens = 'alice') {
  const r = await graph(input, who);
  expect(r.errors).toBeUndefined();
  return {
    timestamps: r.data!.tenantGraph.timestamps,
    partial: r.data!.tenantGraph.partial,
    values: r.data!.tenantGraph.graphs[0]!.consumption[0]!.values,
  };
}
