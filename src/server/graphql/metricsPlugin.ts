/**
 * A Yoga plugin that records each operation's execution time by backend, operation name and type, and every error
 * in a response by its code (metrics.ts). Documents that fail to parse or validate are counted as errors too
 * (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, or the code a limit rule gave), with no duration.
 */
import { type DocumentNode, type GraphQLError, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { getMetrics, operationLabel } from '../metrics.ts';

/** The `code` label of an error: its extensions.code, or INTERNAL_SERVER_ERROR for an unexpected (masked) one. */
function codeOf(error: GraphQLError, fallback: string): string {
  const code = error.extensions?.code;
  return typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code) ? code : fallback;
}

function operationOf(document: DocumentNode | undefined, name: string | undefined | null) {
  const operation = document ? getOperationAST(document, name ?? undefined) : null;
  return { name: name ?? operation?.name?.value, type: operation?.operation ?? 'unknown' };
}

/** The operation name the request asked for (Yoga puts the request's params on the context). */
function requestedOperation(context: unknown): string | undefined {
  return (context as { params?: { operationName?: string | null } }).params?.operationName ?? undefined;
}

export function metricsPlugin(backend: string): Plugin {
  const metrics = getMetrics();
  const countErrors = (operation: string, errors: readonly GraphQLError[], fallback: string) => {
    for (const error of errors)
      metrics.graphqlErrors.inc({ backend, operation, code: codeOf(error, fallback) });
  };
  return {
    onParse({ context }) {
      return ({ result }) => {
        if (result instanceof Error)
          countErrors(
            operationLabel(backend, requestedOperation(context)),
            [result as GraphQLError],
            'GRAPHQL_PARSE_FAILED',
          );
      };
    },
    onValidate({ params, context }) {
      return ({ result }) => {
        if (result.length === 0) return;
        const { name } = operationOf(params.documentAST, requestedOperation(context));
        countErrors(
          operationLabel(backend, name),
          result as readonly GraphQLError[],
          'GRAPHQL_VALIDATION_FAILED',
        );
      };
    },
    onExecute({ args }) {
      const started = performance.now();
      const { name, type } = operationOf(args.document, args.operationName);
      const operation = operationLabel(backend, name);
      return {
        onExecuteDone({ result }) {
          metrics.graphqlDuration.observe({ backend, operation, type }, (performance.now() - started) / 1000);
          if (Symbol.asyncIterator in result) return;
          if (result.errors?.length) countErrors(operation, result.errors, 'INTERNAL_SERVER_ERROR');
        },
      };
    },
  };
}
