/** Which operations leave the caller's check to their fields' own statement, and what an unchecked caller gets. */
import { GraphQLError, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  type GraphQLContext,
  judgeToken,
  onlyDeferredFields,
  requireUserId,
  tokenToCheck,
} from '../../src/server/graphql/context.ts';

const deferred = new Set(['tenantGraph']);
const only = (query: string, operationName?: string) =>
  onlyDeferredFields(parse(query), operationName, deferred);

describe('onlyDeferredFields', () => {
  it('is true for queries of only deferred fields (aliases and __typename allowed)', () => {
    expect(only('{ tenantGraph(graph: {}) { timestamps } }')).toBe(true);
    expect(only('query Q { a: tenantGraph { timestamps } b: tenantGraph { timestamps } __typename }')).toBe(
      true,
    );
  });

  it('is false for anything else', () => {
    expect(only('{ me { id } tenantGraph { timestamps } }')).toBe(false);
    expect(only('{ __typename }')).toBe(false);
    expect(only('{ ...F } fragment F on Query { tenantGraph { timestamps } }')).toBe(false);
    expect(only('{ ... on Query { tenantGraph { timestamps } } }')).toBe(false);
    expect(only('mutation { tenantGraph { timestamps } }')).toBe(false);
    // The operation that runs is the one named; without a name, several operations are ambiguous.
    const two = 'query A { tenantGraph { timestamps } } query B { me { id } }';
    expect(only(two, 'A')).toBe(true);
    expect(only(two, 'B')).toBe(false);
    expect(only(two)).toBe(false);
  });
});

describe('judgeToken', () => {
  const claim = { userId: 7, issuedAt: 1_700_000_000 };
  it('accepts an active user whose tokens were not revoked after the token was issued', () => {
    expect(judgeToken({ isActive: true, tokensValidAfter: null }, claim)).toEqual({ userId: 7 });
    const same = new Date(claim.issuedAt * 1000);
    expect(judgeToken({ isActive: true, tokensValidAfter: same }, claim)).toEqual({ userId: 7 });
  });
  it('refuses a missing or inactive user, and a token older than the last revocation', () => {
    expect(judgeToken(undefined, claim)).toEqual({ userId: null, reason: 'invalid' });
    expect(judgeToken({ isActive: false, tokensValidAfter: null }, claim)).toEqual({
      userId: null,
      reason: 'invalid',
    });
    const later = new Date(claim.issuedAt * 1000 + 1000);
    expect(judgeToken({ isActive: true, tokensValidAfter: later }, claim)).toEqual({
      userId: null,
      reason: 'expired',
    });
  });
});

describe('an unchecked caller', () => {
  const context = {
    caller: { userId: null, reason: 'unchecked' },
    unchecked: { userId: 7, issuedAt: 1 },
  } as GraphQLContext;
  it('is refused as an unexpected error (masked), never as a user', () => {
    let thrown: unknown;
    try {
      requireUserId(context);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(GraphQLError);
  });
  it('is handed to a field that checks it itself, with its claim', () => {
    expect(tokenToCheck(context)).toEqual({ userId: 7, claim: { userId: 7, issuedAt: 1 } });
    const checked = { caller: { userId: 7 }, unchecked: null } as GraphQLContext;
    expect(tokenToCheck(checked)).toEqual({ userId: 7, claim: null });
  });
});
