/**
 * Builds a Yoga server for one backend: schema, per-request context, request ids (read from or added as
 * `x-request-id`), masked unexpected errors logged through pino with that id, and the cost limits of
 * `limits.ts` (introspection and suggestions only in development).
 */
import { randomUUID } from 'node:crypto';
import {
  createSchema,
  createYoga,
  maskError,
  type Plugin,
  type YogaInitialContext,
  type YogaServerInstance,
} from 'graphql-yoga';
import type { Backend } from '../auth/keys.ts';
import { isPlainRequestId, requestScope } from '../requestScope.ts';
import type { ApiServices } from '../services.ts';
import { callerCheckPlugin, createContext, type GraphQLContext, rememberClientAddress } from './context.ts';
import { limitPlugins, maskErrorWithTimeout } from './limits.ts';
import { metricsPlugin } from './metricsPlugin.ts';

/** A Yoga server instance of one of our backends. */
export type BackendYoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

/**
 * Which fetch classes (Request, Response, streams) Yoga builds on. 'native': Node's own (undici), which an Astro
 * endpoint needs (Astro accepts only a native Response). 'yoga': Yoga's default for Node servers,
 * @whatwg-node/node-fetch, which costs noticeably less per request; for our own HTTP server (http.ts), whose
 * requests and responses never pass through Astro.
 */
export type FetchClasses = 'native' | 'yoga';

interface BackendOptions {
  fetchClasses?: FetchClasses;
  backend: Backend;
  services: ApiServices;
  typeDefs: string;
  // The generated Resolvers type is checked where it is written; Yoga takes any resolver map.
  resolvers: object;
  graphqlEndpoint: string;
  /** Query fields whose resolvers check the caller in their own first statement (see callerCheckPlugin). */
  deferCallerCheck?: readonly string[];
}

const requestIds = new WeakMap<Request, string>();

/** A caller-supplied id is kept when it is short and plain, so logs can be joined across services. */
function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const given = request.headers.get('x-request-id');
    id = isPlainRequestId(given) ? given : randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

function requestIdPlugin(): Plugin {
  return {
    instrumentation: {
      request: ({ request }, wrapped) => requestScope.run({ requestId: requestIdOf(request) }, wrapped),
    },
    onResponse({ request, response }) {
      response.headers.set('x-request-id', requestIdOf(request));
    },
  };
}

/** Media types a GraphQL POST may have: JSON only (the app's own client and every GraphQL client send it). */
const JSON_TYPES = new Set([
  'application/json',
  'application/graphql-response+json',
  'application/graphql+json',
]);

/**
 * Refuses a POST that is not JSON with 415 and a coded error, before Yoga reads it. Yoga would otherwise run
 * form-encoded and multipart posts, which any web page can make a browser send without a CORS preflight, so
 * another site could trigger our anonymous mutations (a victim's reset mails, for instance; issue 24). JSON
 * needs a preflight, which CORS refuses for other origins. GET still serves queries (Yoga refuses mutations
 * over GET).
 */
function jsonOnlyPlugin(): Plugin {
  return {
    onRequest({ request, fetchAPI, endResponse }) {
      if (request.method !== 'POST') return;
      const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (JSON_TYPES.has(type)) return;
      endResponse(
        new fetchAPI.Response(
          JSON.stringify({
            errors: [
              {
                message: 'GraphQL requests are posted as application/json',
                extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
              },
            ],
          }),
          {
            status: 415,
            // Refused before Yoga's own response hooks run: the id is set here so the refusal can be found in logs.
            headers: { 'content-type': 'application/json', 'x-request-id': requestIdOf(request) },
          },
        ),
      );
    },
  };
}

/** Node's own fetch classes, for Yoga instances whose responses go back through Astro. */
const NATIVE_FETCH_API = {
  fetch: globalThis.fetch,
  Request: globalThis.Request,
  Response: globalThis.Response,
  Headers: globalThis.Headers,
  FormData: globalThis.FormData,
  ReadableStream: globalThis.ReadableStream,
  WritableStream: globalThis.WritableStream,
  TransformStream: globalThis.TransformStream,
  CompressionStream: globalThis.CompressionStream,
  DecompressionStream: globalThis.DecompressionStream,
  TextEncoderStream: globalThis.TextEncoderStream,
  TextDecoderStream: globalThis.TextDecoderStream,
  Blob: globalThis.Blob,
  File: globalThis.File,
  URL: globalThis.URL,
  URLSearchParams: globalThis.URLSearchParams,
  TextEncoder: globalThis.TextEncoder,
  TextDecoder: globalThis.TextDecoder,
  crypto: globalThis.crypto,
  btoa: globalThis.btoa,
};

/** Creates the Yoga server of one backend. */
export function createBackendYoga(options: BackendOptions): BackendYoga {
  const { backend, services } = options;
  const logger = services.logger.child({ backend });
  const buildContext = createContext(services, backend);
  // Yoga logs every error it masks through this logger; the request scope adds the id.
  const withId = () => ({ requestId: requestScope.getStore()?.requestId });
  const yogaLogger = {
    debug: (...args: unknown[]) => logger.debug({ ...withId(), args }, 'yoga'),
    info: (...args: unknown[]) => logger.info({ ...withId(), args }, 'yoga'),
    warn: (...args: unknown[]) => logger.warn({ ...withId(), args }, 'yoga'),
    error: (err: unknown, ...args: unknown[]) => logger.error({ ...withId(), err, args }, 'unexpected error'),
  };
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: createSchema<Record<string, unknown> & YogaInitialContext & GraphQLContext>({
      typeDefs: options.typeDefs,
      resolvers: options.resolvers as never,
    }),
    graphqlEndpoint: options.graphqlEndpoint,
    maskedErrors: { maskError: maskErrorWithTimeout(maskError) },
    // Same origin only, unless CORS_ORIGINS lists the caller's origin. The API uses bearer tokens, never
    // cookies, so no origin is ever told that credentials are allowed.
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (!origin || !services.config.CORS_ORIGINS.includes(origin)) return false;
      return {
        origin: [origin],
        credentials: false,
        methods: ['GET', 'POST'],
        allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
        exposedHeaders: ['x-request-id'],
        maxAge: 600,
      };
    },
    landingPage: false,
    logging: yogaLogger,
    plugins: [
      jsonOnlyPlugin(),
      requestIdPlugin(),
      metricsPlugin(backend),
      callerCheckPlugin(options.deferCallerCheck ?? []) as Plugin,
      ...limitPlugins({
        introspection: services.config.graphqlIntrospection,
        graphMaxPoints: services.config.GRAPH_MAX_POINTS,
      }),
    ],
    // Node's own fetch classes unless asked otherwise: Astro accepts only a native Response from an endpoint.
    ...(options.fetchClasses === 'yoga' ? {} : { fetchAPI: NATIVE_FETCH_API }),
    context: (initial) => {
      // Served by our Node server (http.ts), Yoga gets the Node request: its socket address is the
      // client's, for per-IP throttling. The Astro routes record it themselves.
      const nodeRequest = (initial as { req?: { socket?: { remoteAddress?: string } } }).req;
      rememberClientAddress(initial.request, nodeRequest?.socket?.remoteAddress);
      return buildContext(initial.request, requestIdOf(initial.request));
    },
  });
}
