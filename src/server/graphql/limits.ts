/**
 * What one GraphQL request may cost, on both backends. graphql-armor bounds the document (tokens, counted
 * while lexing so a huge document is refused before it is parsed; aliases; depth; directives; a static field
 * cost), and `graphPointsLimitPlugin` bounds the data: the series points (objects × quantities × buckets) of
 * every graph-shaped field of the operation together (tenantGraph, tenancyDashboard's graph, fixedCharges). Each refusal is a GraphQLError with
 * `extensions.code` QUERY_TOO_COMPLEX and `extensions.limit` naming the limit.
 * Introspection and "Did you mean" suggestions are on only when the config says so (development).
 */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
// Only AST helpers from graphql here, nothing that checks `instanceof` on schema types: under Vite (tests,
// the Astro build) this module may get graphql's ESM build while Yoga's schema comes from its CommonJS build.
import {
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  getOperationAST,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  valueFromASTUntyped,
} from 'graphql';
import type { MaskError, Plugin } from 'graphql-yoga';
import { MAX_BUCKETS } from '../tenant/graph/buckets.ts';
import type { ErrorCode } from './errors.ts';

/** The extension code of every refused-for-cost request; the client shows `errors.request_too_large`. */
export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX' satisfies ErrorCode;

/** Which limit refused a request (`extensions.limit`). */
type LimitName =
  | 'tokens'
  | 'aliases'
  | 'depth'
  | 'directives'
  | 'cost'
  | 'graphPoints'
  | 'bodySize'
  | 'introspection'
  | 'statementTimeout';

/** The document limits; generous for the app's own operations (the largest has about 60 tokens, depth 5). */
export const DOCUMENT_LIMITS = {
  /** Lexer tokens; counted while parsing, so parsing stops at the first token past the limit. */
  tokens: 2_000,
  /** Aliased fields in one operation. */
  aliases: 15,
  /** Nesting of selection sets. */
  depth: 10,
  /** Directives in one operation. */
  directives: 20,
  /** graphql-armor's static cost: 2 per object field, 1 per scalar, ×1.5 per level. */
  cost: 5_000,
} as const;

/** Marks an error thrown or reported by a limit with our code and the limit's name. */
function tagError(limit: LimitName) {
  return (_ctx: unknown, error: GraphQLError) => {
    Object.assign(error.extensions as Record<string, unknown>, { code: QUERY_TOO_COMPLEX, limit });
  };
}

/** A refusal with our code. */
function tooComplex(limit: LimitName, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, limit } });
}

/** Refuses `__schema` and `__type` (not `__typename`) anywhere in a document, with a coded error. */
function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type')
        context.reportError(
          new GraphQLError(`Introspection is disabled: "${node.name.value}" cannot be queried`, {
            nodes: node,
            extensions: { code: 'INTROSPECTION_DISABLED' },
          }),
        );
    },
  };
}

function disableIntrospectionPlugin(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(noIntrospectionRule);
    },
  };
}

// ---- tenantGraph points ----

const LOCAL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A Copenhagen local minute as if it were UTC (enough for counting buckets; DST moves at most an hour). */
function localMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = LOCAL_MINUTE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * An upper estimate of the buckets tenantGraph will plan for a range, without building them: whole hours,
 * days, weeks, months or years touched, plus one for a DST hour. Capped at MAX_BUCKETS, past which the
 * resolver refuses the range without reading anything. 0 for input the resolver will refuse.
 */
export function estimateBuckets(resolution: unknown, periodBegin: unknown, periodEnd: unknown): number {
  const begin = localMs(periodBegin);
  const end = localMs(periodEnd);
  if (begin === null || end === null || end <= begin) return 0;
  const last = end - 60_000;
  let buckets: number;
  switch (resolution) {
    case 'HOUR':
      buckets = Math.floor(last / HOUR_MS) - Math.floor(begin / HOUR_MS) + 2;
      break;
    case 'DAY':
      buckets = Math.floor(last / DAY_MS) - Math.floor(begin / DAY_MS) + 1;
      break;
    case 'WEEK':
      buckets = Math.floor((Math.floor(last / DAY_MS) - Math.floor(begin / DAY_MS)) / 7) + 2;
      break;
    case 'MONTH':
    case 'YEAR': {
      const a = new Date(begin);
      const b = new Date(last);
      const months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
      buckets = resolution === 'MONTH' ? months + 1 : b.getUTCFullYear() - a.getUTCFullYear() + 1;
      break;
    }
    default:
      return 0;
  }
  return Math.min(buckets, MAX_BUCKETS[resolution]);
}

/** The points one tenantGraph argument asks for: objects × quantities × buckets. */
function graphPoints(graph: unknown): number {
  if (typeof graph !== 'object' || graph === null) return 0;
  const g = graph as Record<string, unknown>;
  const objects = Array.isArray(g.objects) ? g.objects.length : 0;
  const quantities = Array.isArray(g.quantities) ? g.quantities.length : 0;
  return objects * quantities * estimateBuckets(g.resolution, g.periodBegin, g.periodEnd);
}

/** The root fields the operation executes, by response name (fields with one name merge into one). */
function rootFields(document: DocumentNode, operationName: string | null | undefined): FieldNode[] {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query') return [];
  const fragments = new Map<string, SelectionSetNode>();
  for (const def of document.definitions)
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def.selectionSet);
  const byResponseName = new Map<string, FieldNode>();
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!byResponseName.has(key)) byResponseName.set(key, selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment);
      }
    }
  };
  collect(operation.selectionSet);
  return [...byResponseName.values()];
}

/** `YYYY-MM-DD` inclusive dates as the local-minute range [begin 00:00, day after end 00:00). */
function dateRange(begin: unknown, end: unknown): [string, string] | null {
  if (typeof begin !== 'string' || typeof end !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(end)) return null;
  const after = new Date(`${end}T00:00Z`);
  if (Number.isNaN(after.getTime())) return null;
  after.setUTCDate(after.getUTCDate() + 1);
  return [`${begin}T00:00`, `${after.toISOString().slice(0, 10)}T00:00`];
}

/**
 * The series points one graph-shaped root field asks for, from its arguments: tenantGraph's
 * objects × quantities × buckets; tenancyDashboard's graph (one unit × quantities × buckets); fixedCharges'
 * buckets (its charges are a few rows of the property). 0 for any other field.
 */
function fieldPoints(name: string, args: Record<string, unknown>): number {
  if (name === 'tenantGraph') return graphPoints(args.graph);
  const input = args.input as Record<string, unknown> | null | undefined;
  if (typeof input !== 'object' || input === null) return 0;
  if (name === 'tenancyDashboard')
    return graphPoints({
      objects: [input.tenancyId],
      quantities: input.quantities,
      resolution: input.resolution,
      periodBegin: input.graphBegin,
      periodEnd: input.graphEnd,
    });
  if (name === 'fixedCharges') {
    const range = dateRange(input.periodBegin, input.periodEnd);
    return range ? estimateBuckets(input.resolution, range[0], range[1]) : 0;
  }
  return 0;
}

/**
 * The points all graph-shaped root fields of an operation (tenantGraph, tenancyDashboard, fixedCharges) ask
 * for together, with the variables applied: one limit for all of them.
 */
function operationGraphPoints(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): number {
  let total = 0;
  for (const node of rootFields(document, operationName)) {
    const args: Record<string, unknown> = {};
    // Enum literals read as their names, which is what the estimate compares with.
    for (const arg of node.arguments ?? [])
      args[arg.name.value] = valueFromASTUntyped(arg.value, variables ?? {});
    total += fieldPoints(node.name.value, args);
  }
  return total;
}

/** Refuses an operation whose graph-shaped fields ask for more than `maxPoints` points in all, before it runs. */
function graphPointsLimitPlugin(maxPoints: number): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const points = operationGraphPoints(
        args.document,
        args.operationName,
        args.variableValues as Record<string, unknown> | null | undefined,
      );
      if (points > maxPoints)
        setResultAndStopExecution({
          errors: [
            tooComplex(
              'graphPoints',
              `Query too large: its graphs ask for ${points} points (objects × quantities × buckets), at most ${maxPoints} per request`,
            ),
          ],
        });
    },
  };
}

/** Every limit, for one backend. */
export function limitPlugins(options: { introspection: boolean; graphMaxPoints: number }): Plugin[] {
  const armor = EnvelopArmorPlugin({
    maxTokens: { n: DOCUMENT_LIMITS.tokens, onReject: [tagError('tokens')] },
    maxAliases: { n: DOCUMENT_LIMITS.aliases, onReject: [tagError('aliases')] },
    maxDepth: { n: DOCUMENT_LIMITS.depth, onReject: [tagError('depth')] },
    maxDirectives: { n: DOCUMENT_LIMITS.directives, onReject: [tagError('directives')] },
    costLimit: { maxCost: DOCUMENT_LIMITS.cost, onReject: [tagError('cost')] },
    // Suggestions name fields; they help a developer and a prober alike.
    blockFieldSuggestion: { enabled: !options.introspection, mask: '' },
  }) as Plugin;
  const plugins = [armor, graphPointsLimitPlugin(options.graphMaxPoints)];
  if (!options.introspection) plugins.push(disableIntrospectionPlugin());
  return plugins;
}

/** Whether an error (or one it wraps) is PostgreSQL cancelling a statement past statement_timeout (57014). */
function isStatementTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '57014') return true;
    e = (e as { originalError?: unknown; cause?: unknown }).originalError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Yoga's error masking, except that a statement cancelled by DB_STATEMENT_TIMEOUT_MS is a coded refusal
 * (QUERY_TOO_COMPLEX, limit statementTimeout: the client asks for a shorter period) instead of an
 * unexpected INTERNAL_SERVER_ERROR.
 */
export function maskErrorWithTimeout(mask: MaskError): MaskError {
  return (error, message, isDev) =>
    isStatementTimeout(error)
      ? tooComplex('statementTimeout', 'The request took too long. Choose a shorter period or fewer series.')
      : mask(error, message, isDev);
}
