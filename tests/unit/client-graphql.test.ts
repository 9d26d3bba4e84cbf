import { afterEach, describe, expect, it, vi } from 'vitest';
import { GraphQLResponseError, requestWithToken } from '../../src/client/graphql.ts';
import { serverErrorCode } from '../../src/lib/errors.ts';

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
    typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('requestWithToken', () => {
  it('posts the document and variables with the bearer token, and returns data', async () => {
    const fetchMock = answer(200, { data: { me: { id: 'u1' } } });
    const data = await requestWithToken('account', 'query UserQuery { me { id } }', { a: 1 }, 'tok');
    expect(data).toEqual({ me: { id: 'u1' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/account/graphql');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(JSON.parse(init.body as string)).toEqual({
      query: 'query UserQuery { me { id } }',
      variables: { a: 1 },
    });
  });

  it('sends no authorization header without a token, to the tenant endpoint for tenant calls', async () => {
    const fetchMock = answer(200, { data: { ok: true } });
    await requestWithToken('tenant', 'mutation { ok }', {}, null);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/tenant/graphql');
    expect(init.headers).not.toHaveProperty('authorization');
  });

  it('throws the GraphQL errors so lib/errors maps their code', async () => {
    answer(200, { data: null, errors: [{ message: 'nope', extensions: { code: 'UNAUTHENTICATED' } }] });
    const err = await requestWithToken('account', '{ me { id } }', {}, 'tok').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphQLResponseError);
    expect((err as Error).message).toBe('nope');
    expect(serverErrorCode(err)).toBe('login_required');
  });

  it('throws on an HTTP failure without a GraphQL body', async () => {
    answer(502, 'Bad Gateway');
    await expect(requestWithToken('account', '{ me { id } }', {}, null)).rejects.toThrow('HTTP 502');
  });

  it('lets a network failure through as it is, which lib/errors reads as "network"', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await requestWithToken('account', '{ me { id } }', {}, null).catch((e: unknown) => e);
    expect(serverErrorCode(err)).toBe('network');
  });
});
