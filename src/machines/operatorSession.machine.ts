/**
 * The operator console's session: restore the stored tokens, log in with email and password and then the
 * second factor (a TOTP code, or a recovery code; on the first login the factor is set up from a QR code and
 * ten recovery codes are shown once), and log out. Pure: storage and network are supplied with `.provide()`.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { BackendTokens } from './session.machine.ts';

/** The signed-in operator, as operatorMe answers. */
export type OperatorProfile = {
  id: string;
  email: string;
  name: string;
  role: 'ORG_ADMIN' | 'PROPERTY_MANAGER';
  organisation: { id: string; name: string };
  propertyIds: string[];
};

/** What the password step answers: the challenge for the code, and on a first login the new secret. */
export type PasswordStep = {
  next: 'TOTP_REQUIRED' | 'TOTP_SETUP_REQUIRED';
  challenge: string;
  qrSvg: string | null;
  secret: string | null;
};

/** What the code step answers. */
export type CodeStep = { tokens: BackendTokens; recoveryCodes: string[] | null };

/** Why a step failed: the backend's extensions.code (CHALLENGE_EXPIRED, SECOND_FACTOR_INVALID, …). */
export type StepError = string;

export type OperatorSessionContext = {
  tokens: BackendTokens | null;
  operator: OperatorProfile | null;
  email: string;
  challenge: string | null;
  setup: { qrSvg: string | null; secret: string | null } | null;
  recoveryCodes: string[] | null;
  error: StepError | null;
  /** Why the last session ended: the operator's choice, or a refused or expired token. */
  logoutReason: 'user' | 'expired' | null;
};

export type OperatorSessionEvent =
  | { type: 'login.submit'; email: string; password: string }
  | { type: 'code.submit'; code: string }
  | { type: 'login.restart' }
  | { type: 'codes.saved' }
  | { type: 'tokens.refreshed'; tokens: BackendTokens }
  | { type: 'session.unauthorized' }
  | { type: 'session.logout' };

const errorOf = (event: unknown): StepError => {
  const error = (event as { error?: unknown }).error;
  return error instanceof Error && error.message ? error.message : 'unknown';
};

export const operatorSessionMachine = setup({
  types: {
    context: {} as OperatorSessionContext,
    events: {} as OperatorSessionEvent,
  },
  actors: {
    // Replaced by the app with .provide(); the placeholders fail loudly so a missing wiring is visible.
    restore: fromPromise<BackendTokens | null>(async () => {
      throw new Error('restore is not provided');
    }),
    loadOperator: fromPromise<OperatorProfile, { tokens: BackendTokens | null }>(async () => {
      throw new Error('loadOperator is not provided');
    }),
    checkPassword: fromPromise<PasswordStep, { email: string; password: string }>(async () => {
      throw new Error('checkPassword is not provided');
    }),
    checkCode: fromPromise<CodeStep, { challenge: string; code: string }>(async () => {
      throw new Error('checkCode is not provided');
    }),
    revoke: fromPromise<void, { tokens: BackendTokens | null }>(async () => {
      throw new Error('revoke is not provided');
    }),
  },
  actions: {
    persistTokens: (_, _params: { tokens: BackendTokens | null }) => {},
    clearCache: () => {},
  },
}).createMachine({
  id: 'operatorSession',
  context: {
    tokens: null,
    operator: null,
    email: '',
    challenge: null,
    setup: null,
    recoveryCodes: null,
    error: null,
    logoutReason: null,
  },
  initial: 'initialising',
  states: {
    initialising: {
      invoke: {
        id: 'restore',
        src: 'restore',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'loadingOperator',
            actions: assign({ tokens: ({ event }) => event.output }),
          },
          { target: 'loggedOut' },
        ],
        onError: { target: 'loggedOut' },
      },
    },
    loadingOperator: {
      invoke: {
        id: 'loadOperator',
        src: 'loadOperator',
        input: ({ context }) => ({ tokens: context.tokens }),
        onDone: {
          target: 'loggedIn',
          actions: assign({ operator: ({ event }) => event.output, logoutReason: null }),
        },
        onError: {
          target: 'loggedOut',
          actions: [
            assign({ tokens: null, operator: null, logoutReason: 'expired' }),
            { type: 'persistTokens', params: { tokens: null } },
          ],
        },
      },
      on: {
        'tokens.refreshed': {
          actions: [
            assign({ tokens: ({ event }) => event.tokens }),
            { type: 'persistTokens', params: ({ event }) => ({ tokens: event.tokens }) },
          ],
        },
      },
    },
    loggedOut: {
      initial: 'credentials',
      states: {
        credentials: {
          on: {
            'login.submit': {
              target: 'checkingPassword',
              actions: assign({ email: ({ event }) => event.email.trim(), error: null }),
            },
          },
        },
        checkingPassword: {
          invoke: {
            id: 'checkPassword',
            src: 'checkPassword',
            input: ({ event }) => {
              assertEvent(event, 'login.submit');
              return { email: event.email.trim(), password: event.password };
            },
            onDone: {
              target: 'secondFactor',
              actions: assign({
                challenge: ({ event }) => event.output.challenge,
                setup: ({ event }) =>
                  event.output.next === 'TOTP_SETUP_REQUIRED'
                    ? { qrSvg: event.output.qrSvg, secret: event.output.secret }
                    : null,
              }),
            },
            onError: { target: 'credentials', actions: assign({ error: ({ event }) => errorOf(event) }) },
          },
        },
        secondFactor: {
          on: {
            'code.submit': { target: 'checkingCode', actions: assign({ error: null }) },
            'login.restart': {
              target: 'credentials',
              actions: assign({ challenge: null, setup: null, error: null }),
            },
          },
        },
        checkingCode: {
          invoke: {
            id: 'checkCode',
            src: 'checkCode',
            input: ({ context, event }) => {
              assertEvent(event, 'code.submit');
              return { challenge: context.challenge ?? '', code: event.code.trim() };
            },
            onDone: [
              {
                guard: ({ event }) => (event.output.recoveryCodes?.length ?? 0) > 0,
                target: 'recoveryCodes',
                actions: [
                  assign({
                    tokens: ({ event }) => event.output.tokens,
                    recoveryCodes: ({ event }) => event.output.recoveryCodes,
                    challenge: null,
                    setup: null,
                  }),
                  { type: 'persistTokens', params: ({ event }) => ({ tokens: event.output.tokens }) },
                ],
              },
              {
                target: '#operatorSession.loadingOperator',
                actions: [
                  assign({ tokens: ({ event }) => event.output.tokens, challenge: null, setup: null }),
                  { type: 'persistTokens', params: ({ event }) => ({ tokens: event.output.tokens }) },
                ],
              },
            ],
            onError: [
              {
                // An expired or used challenge cannot take another code: start again from the password.
                guard: ({ event }) => errorOf(event) === 'CHALLENGE_EXPIRED',
                target: 'credentials',
                actions: assign({ error: 'CHALLENGE_EXPIRED', challenge: null, setup: null }),
              },
              { target: 'secondFactor', actions: assign({ error: ({ event }) => errorOf(event) }) },
            ],
          },
        },
        // Shown once, after the factor is set up: the operator confirms they saved them.
        recoveryCodes: {
          on: {
            'codes.saved': {
              target: '#operatorSession.loadingOperator',
              actions: assign({ recoveryCodes: null }),
            },
          },
        },
      },
    },
    loggedIn: {
      on: {
        'tokens.refreshed': {
          actions: [
            assign({ tokens: ({ event }) => event.tokens }),
            { type: 'persistTokens', params: ({ event }) => ({ tokens: event.tokens }) },
          ],
        },
        'session.unauthorized': {
          target: 'loggedOut',
          actions: [
            assign({ tokens: null, operator: null, logoutReason: 'expired', error: null }),
            { type: 'persistTokens', params: { tokens: null } },
            'clearCache',
          ],
        },
        'session.logout': { target: 'loggingOut' },
      },
    },
    loggingOut: {
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => ({ tokens: context.tokens }),
        onDone: { target: 'loggedOut' },
        onError: { target: 'loggedOut' },
      },
      exit: [
        assign({ tokens: null, operator: null, logoutReason: 'user', email: '', error: null }),
        { type: 'persistTokens', params: { tokens: null } },
        'clearCache',
      ],
    },
  },
});
