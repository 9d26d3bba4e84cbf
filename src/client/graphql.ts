/**
 * The one GraphQL client per backend. It adds the bearer header from the session and reports
 * "login required" to the session actor; it never redirects by itself (SPEC §6).
 * A plain POST of the document text (GraphQL over HTTP): graphql-request parses every document with
 * graphql-js to find its operation name, which shipped the whole parser (12 KB gzipped) to every page.
 */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { isLoginRequired, serverErrorCode } from '../lib/errors.ts';
import type { Backend } from '../machines/session.machine.ts';
import { config } from './config.ts';

/** What the session supplies to authorized requests. */
export type AuthHooks = {
  /** A valid access token for the backend, refreshed first when it has expired. */
  accessToken: (backend: Backend, opts?: { forceRefresh?: boolean }) => Promise<string>;
  /** Called when a backend says the caller must log in again. */
  unauthorized: () => void;
};

let hooks: AuthHooks | null = null;

/** Connects authorized requests to the session; the session module calls it once. */
export function configureAuth(next: AuthHooks): void {
  hooks = next;
}

/** A typed document generated from `src/client/operations/{backend}/*.graphql` (see src/client/gql). */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & {
  toString(): string;
};

/** The variables of a request. */
export type Variables = Record<string, unknown>;

/**
 * A GraphQL response that carries errors (or an HTTP failure without a GraphQL body). Shaped like
 * graphql-request's ClientError (`response.errors`), which lib/errors reads.
 */
export class GraphQLResponseError extends Error {
  readonly response: { status: number; errors: unknown[] };

  constructor(status: number, errors: unknown[]) {
    const first = errors[0] as { message?: unknown } | undefined;
    super(typeof first?.message === 'string' ? first.message : `GraphQL request failed (HTTP ${status})`);
    this.name = 'GraphQLResponseError';
    this.response = { status, errors };
  }
}

/** Where the operator console's backend answers (src/server/admin/yoga.ts). */
const ADMIN_ENDPOINT = '/api/admin/graphql';

/** A backend the browser calls: the tenant app's two, or the operator console's. */
export type Endpoint = Backend | 'admin';

function endpoint(backend: Endpoint): string {
  if (backend === 'admin') return ADMIN_ENDPOINT;
  return backend === 'account' ? config.accountEndpoint : config.tenantEndpoint;
}

/** A request with an explicit access token, or none (login and refresh calls). */
export async function requestWithToken<T, V extends Variables = Variables>(
  backend: Endpoint,
  document: TypedDocument<T, V>,
  variables: V,
  token: string | null,
): Promise<T> {
  const response = await fetch(endpoint(backend), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query: String(document), variables }),
  });
  const body: unknown = await response.json().catch(() => null);
  const { data, errors } = (body ?? {}) as { data?: T | null; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) throw new GraphQLResponseError(response.status, errors);
  if (!response.ok || data === undefined) throw new GraphQLResponseError(response.status, []);
  return data as T;
}

/** A request authorized by the session; an expired token is refreshed and the request tried once more. */
export async function authorizedRequest<T, V extends Variables = Variables>(
  backend: Backend,
  document: TypedDocument<T, V>,
  variables: V,
): Promise<T> {
  if (!hooks) throw new Error('authorizedRequest before the session is configured');
  const auth = hooks;
  const attempt = async (forceRefresh: boolean) =>
    requestWithToken<T, V>(backend, document, variables, await auth.accessToken(backend, { forceRefresh }));
  try {
    return await attempt(false);
  } catch (err) {
    let failure = err;
    if (serverErrorCode(err) === 'session_expired') {
      try {
        return await attempt(true);
      } catch (again) {
        failure = again;
      }
    }
    const code = serverErrorCode(failure);
    if (isLoginRequired(code) || code === 'session_expired') auth.unauthorized();
    throw failure;
  }
}

/** A GET with the session's bearer token (e.g. a statement PDF); an expired token is refreshed once. */
export async function authorizedGet(backend: Backend, path: string): Promise<Response> {
  if (!hooks) throw new Error('authorizedGet before the session is configured');
  const auth = hooks;
  const attempt = async (forceRefresh: boolean) =>
    fetch(path, {
      headers: { authorization: `Bearer ${await auth.accessToken(backend, { forceRefresh })}` },
    });
  const first = await attempt(false);
  return first.status === 401 ? attempt(true) : first;
}
