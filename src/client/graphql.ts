/**
 * The one GraphQL client per backend. It adds the bearer header from the session and reports
 * "login required" to the session actor; it never redirects by itself (SPEC §6).
 */
import { GraphQLClient, type RequestDocument, type Variables } from 'graphql-request';
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

function endpoint(backend: Backend): string {
  const path = backend === 'account' ? config.accountEndpoint : config.tenantEndpoint;
  // graphql-request needs an absolute URL; relative endpoints are resolved against the page.
  const base = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
  return new URL(path, base).toString();
}

const clients = new Map<Backend, GraphQLClient>();

/** The shared graphql-request client of a backend. */
function graphqlClient(backend: Backend): GraphQLClient {
  let client = clients.get(backend);
  if (!client) {
    client = new GraphQLClient(endpoint(backend), { method: 'POST' });
    clients.set(backend, client);
  }
  return client;
}

/** A request with an explicit access token, or none (login and refresh calls). */
export function requestWithToken<T, V extends Variables = Variables>(
  backend: Backend,
  document: RequestDocument,
  variables: V,
  token: string | null,
): Promise<T> {
  const requestHeaders: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return graphqlClient(backend).request<T>({ document, variables, requestHeaders } as never);
}

/** A request authorized by the session; an expired token is refreshed and the request tried once more. */
export async function authorizedRequest<T, V extends Variables = Variables>(
  backend: Backend,
  document: RequestDocument,
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
