/**
 * Guard boundaries of the form machines: for every guard, the last input that passes and the first that does not,
 * with the state and context written out by hand (not read from the machine), so a guard moved by one fails here.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor } from 'xstate';
import { activationFormMachine } from '../../src/machines/activationForm.machine.ts';
import { createBulkInviteMachine } from '../../src/machines/bulkInvite.machine.ts';
import { cookieConsentMachine } from '../../src/machines/cookieConsent.machine.ts';
import { loginFormMachine } from '../../src/machines/loginForm.machine.ts';
import { moveTenantMachine } from '../../src/machines/moveTenant.machine.ts';
import { operatorSessionMachine } from '../../src/machines/operatorSession.machine.ts';
import { signupFormMachine } from '../../src/machines/signupForm.machine.ts';
import { Deferreds } from './harness.ts';

/** Starts `machine` with each named promise actor waiting on `deferreds`. */
function start<T extends AnyStateMachine>(machine: T, srcs: string[], input?: unknown) {
  const deferreds = new Deferreds();
  const actors = Object.fromEntries(srcs.map((src) => [src, deferreds.actor]));
  const actor = createActor(machine.provide({ actors } as never), { input } as never).start();
  return { actor, deferreds };
}

const field = (name: string, value: string) => ({ type: 'field.change', field: name, value }) as const;

describe('activationForm guards', () => {
  const submit = (code: string) => {
    const sut = start(activationFormMachine, ['validateActivationCode']);
    sut.actor.send(field('code', code));
    sut.actor.send({ type: 'form.submit' });
    return sut;
  };

  it('isCodeWellFormed: 12 letters (dashes and case aside) go to the server', () => {
    const { actor, deferreds } = submit('abcd-EFGH-ijkl');
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context.codeError).toBeNull();
    expect(deferreds.input('validateActivationCode')).toEqual({ code: 'ABCDEFGHIJKL' });
  });

  for (const [why, code] of [
    ['11 letters', 'ABCDEFGHIJK'],
    ['13 letters', 'ABCDEFGHIJKLM'],
    ['a digit for the 12th letter', 'ABCDEFGHIJK1'],
  ] as const) {
    it(`isCodeWellFormed: ${why} stay in editing with the format error, without a call`, () => {
      const { actor, deferreds } = submit(code);
      expect(actor.getSnapshot().value).toBe('editing');
      expect(actor.getSnapshot().context).toMatchObject({ code, codeError: 'activation_code_invalid' });
      expect(deferreds.has('validateActivationCode')).toBe(false);
    });
  }

  it('isAccepted: ok true ends the form; ok false goes back to editing with the reason', async () => {
    const yes = submit('ABCDEFGHIJKL');
    await yes.deferreds.resolve('validateActivationCode', { ok: true, text: null });
    expect(yes.actor.getSnapshot().status).toBe('done');
    expect(yes.actor.getSnapshot().output).toEqual({ code: 'ABCDEFGHIJKL' });

    const no = submit('ABCDEFGHIJKL');
    await no.deferreds.resolve('validateActivationCode', { ok: false, text: 'Already used' });
    expect(no.actor.getSnapshot().value).toBe('editing');
    expect(no.actor.getSnapshot().context).toEqual({
      code: 'ABCDEFGHIJKL',
      codeError: null,
      serverError: 'activation_code_invalid',
      serverText: 'Already used',
    });
  });
});

describe('loginForm guard isFormValid', () => {
  const submit = (email: string, password: string) => {
    const sut = start(loginFormMachine, ['submitLogin']);
    sut.actor.send(field('email', email));
    sut.actor.send(field('password', password));
    sut.actor.send({ type: 'form.submit' });
    return sut;
  };

  it('passes with a one-character password and a two-letter top-level domain', () => {
    const { actor, deferreds } = submit(' a@b.dk ', 'x');
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context).toMatchObject({ emailError: null, passwordError: null });
    expect(deferreds.input('submitLogin')).toEqual({ email: 'a@b.dk', password: 'x' });
  });

  it('refuses an empty password', () => {
    const { actor, deferreds } = submit('a@b.dk', '');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      emailError: null,
      passwordError: 'password_required',
    });
    expect(deferreds.has('submitLogin')).toBe(false);
  });

  it('refuses a one-letter top-level domain', () => {
    const { actor, deferreds } = submit('a@b.d', 'x');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ emailError: 'email_invalid', passwordError: null });
    expect(deferreds.has('submitLogin')).toBe(false);
  });
});

describe('signupForm guard isFormValid', () => {
  // 12 characters with a capital, a small letter, a digit and a special character: the shortest allowed.
  const TWELVE = 'Fjord-Lant42';
  const submit = (email: string, password: string, confirmPassword: string) => {
    const sut = start(signupFormMachine, ['submitSignup']);
    sut.actor.send(field('email', email));
    sut.actor.send(field('password', password));
    sut.actor.send(field('confirmPassword', confirmPassword));
    sut.actor.send({ type: 'form.submit' });
    return sut;
  };

  it('passes with a 12-character password and its exact confirmation', () => {
    expect([...TWELVE]).toHaveLength(12);
    const { actor, deferreds } = submit('a@b.dk', TWELVE, TWELVE);
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context).toMatchObject({
      emailError: null,
      passwordErrors: [],
      confirmError: null,
    });
    expect(deferreds.input('submitSignup')).toEqual({ email: 'a@b.dk', password: TWELVE });
  });

  it('refuses an 11-character password', () => {
    const eleven = TWELVE.slice(1);
    const { actor, deferreds } = submit('a@b.dk', eleven, eleven);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      showErrors: true,
      passwordErrors: ['password_too_short'],
      confirmError: null,
    });
    expect(deferreds.has('submitSignup')).toBe(false);
  });

  it('refuses a confirmation one character short', () => {
    const { actor, deferreds } = submit('a@b.dk', TWELVE, TWELVE.slice(0, -1));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      passwordErrors: [],
      confirmError: 'passwords_mismatch',
    });
    expect(deferreds.has('submitSignup')).toBe(false);
  });

  it('refuses an invalid email with a valid password', () => {
    const { actor } = submit('a@b.d', TWELVE, TWELVE);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.emailError).toBe('email_invalid');
  });
});

describe('cookieConsent guard wasAnswered', () => {
  const stateFor = (accepted: boolean | null) =>
    createActor(cookieConsentMachine, { input: { accepted } }).start().getSnapshot();

  it('a stored "false" is an answer: the banner stays hidden', () => {
    expect(stateFor(false).value).toBe('answered');
    expect(stateFor(false).context).toEqual({ accepted: false });
    expect(stateFor(true).value).toBe('answered');
  });

  it('no stored answer shows the banner', () => {
    expect(stateFor(null).value).toBe('notAnswered');
    expect(stateFor(null).context).toEqual({ accepted: null });
  });
});

describe('bulkInvite guards', () => {
  const submit = (csv: string) => {
    const sut = start(createBulkInviteMachine<{ sent: number }>(), ['send']);
    sut.actor.send({ type: 'csv.change', value: csv });
    sut.actor.send({ type: 'submit' });
    return sut;
  };

  it('hasCsv: one non-blank character is sent', () => {
    const { actor, deferreds } = submit(' x\n');
    expect(actor.getSnapshot().value).toBe('sending');
    expect(deferreds.input('send')).toEqual({ csv: ' x\n' });
  });

  it('hasCsv: blanks only are refused as an empty file, without a call', () => {
    const { actor, deferreds } = submit(' \n\t ');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe('EMPTY_FILE');
    expect(deferreds.has('send')).toBe(false);
  });

  it('refused: one problem keeps the form with it; none shows the report', async () => {
    const one = submit('a,b');
    await one.deferreds.resolve('send', {
      problems: [{ line: 2, message: 'unknown tenancy' }],
      report: null,
    });
    expect(one.actor.getSnapshot().value).toBe('editing');
    expect(one.actor.getSnapshot().context).toEqual({
      csv: 'a,b',
      problems: [{ line: 2, message: 'unknown tenancy' }],
      report: null,
      error: null,
    });

    const none = submit('a,b');
    await none.deferreds.resolve('send', { problems: [], report: { sent: 1 } });
    expect(none.actor.getSnapshot().value).toBe('reported');
    expect(none.actor.getSnapshot().context).toEqual({
      csv: 'a,b',
      problems: [],
      report: { sent: 1 },
      error: null,
    });
  });
});

describe('moveTenant guards', () => {
  const input = { tenancyId: 't1', apartmentId: 'a1' };
  const moveOut = (lastDay: string) => {
    const sut = start(moveTenantMachine, ['moveOut', 'moveIn'], input);
    sut.actor.send(field('lastDay', lastDay));
    sut.actor.send({ type: 'submit' });
    return sut;
  };

  it('lastDayValid: an ISO day is saved, and the new tenancy starts the day after', () => {
    const { actor, deferreds } = moveOut('2026-02-28');
    expect(actor.getSnapshot().value).toBe('savingMoveOut');
    expect(actor.getSnapshot().context).toMatchObject({ lastDay: '2026-02-28', firstDay: '2026-03-01' });
    expect(deferreds.input('moveOut')).toEqual({ tenancyId: 't1', lastDay: '2026-02-28', readings: [] });
  });

  for (const bad of ['2026-2-28', '2026-02-2', '']) {
    it(`lastDayValid: "${bad}" stays with BAD_USER_INPUT, without a call`, () => {
      const { actor, deferreds } = moveOut(bad);
      expect(actor.getSnapshot().value).toBe('movingOut');
      expect(actor.getSnapshot().context.error).toBe('BAD_USER_INPUT');
      expect(deferreds.has('moveOut')).toBe(false);
    });
  }

  const moveIn = async (reference: string, firstDay?: string) => {
    const sut = moveOut('2026-02-28');
    await sut.deferreds.resolve('moveOut', true);
    sut.actor.send(field('reference', reference));
    if (firstDay !== undefined) sut.actor.send(field('firstDay', firstDay));
    sut.actor.send({ type: 'submit' });
    return sut;
  };

  it('moveInValid: a one-character reference and an ISO first day are saved (trimmed)', async () => {
    const { actor, deferreds } = await moveIn(' R ');
    expect(actor.getSnapshot().value).toBe('savingMoveIn');
    expect(deferreds.input('moveIn')).toEqual({
      apartmentId: 'a1',
      reference: 'R',
      tenant: '',
      firstDay: '2026-03-01',
    });
  });

  it('moveInValid: a blank reference or a malformed first day stays with BAD_USER_INPUT', async () => {
    for (const [reference, firstDay] of [
      ['  ', undefined],
      ['R', '2026-3-01'],
    ] as const) {
      const { actor, deferreds } = await moveIn(reference, firstDay);
      expect(actor.getSnapshot().value).toBe('movingIn');
      expect(actor.getSnapshot().context.error).toBe('BAD_USER_INPUT');
      expect(deferreds.has('moveIn')).toBe(false);
    }
  });
});

describe('operatorSession guards', () => {
  const SRCS = ['restore', 'loadOperator', 'checkPassword', 'checkCode', 'revoke'];
  const tokens = { access: { token: 'a', expiresAt: 1 }, refreshToken: 'r', refreshExpiresAt: null };

  it('restore: stored tokens load the operator; none go to the login', async () => {
    const found = start(operatorSessionMachine, SRCS);
    await found.deferreds.resolve('restore', tokens);
    expect(found.actor.getSnapshot().value).toBe('loadingOperator');
    expect(found.actor.getSnapshot().context.tokens).toEqual(tokens);

    const none = start(operatorSessionMachine, SRCS);
    await none.deferreds.resolve('restore', null);
    expect(none.actor.getSnapshot().value).toEqual({ loggedOut: 'credentials' });
    expect(none.actor.getSnapshot().context.tokens).toBeNull();
  });

  async function atCode() {
    const sut = start(operatorSessionMachine, SRCS);
    await sut.deferreds.resolve('restore', null);
    sut.actor.send({ type: 'login.submit', email: ' op@x.test ', password: 'pw' });
    await sut.deferreds.resolve('checkPassword', {
      next: 'TOTP_REQUIRED',
      challenge: 'ch',
      qrSvg: null,
      secret: null,
    });
    sut.actor.send({ type: 'code.submit', code: ' 123456 ' });
    return sut;
  }

  it('recovery codes: one code is shown before loading; none or null load at once', async () => {
    const one = await atCode();
    await one.deferreds.resolve('checkCode', { tokens, recoveryCodes: ['abcd-efgh'] });
    expect(one.actor.getSnapshot().value).toEqual({ loggedOut: 'recoveryCodes' });
    expect(one.actor.getSnapshot().context).toMatchObject({ recoveryCodes: ['abcd-efgh'], tokens });

    for (const recoveryCodes of [[], null]) {
      const none = await atCode();
      await none.deferreds.resolve('checkCode', { tokens, recoveryCodes });
      expect(none.actor.getSnapshot().value).toBe('loadingOperator');
      expect(none.actor.getSnapshot().context).toMatchObject({
        recoveryCodes: null,
        tokens,
        challenge: null,
      });
    }
  });

  it('an expired challenge starts again from the password; any other error stays on the code', async () => {
    const expired = await atCode();
    await expired.deferreds.reject('checkCode', new Error('CHALLENGE_EXPIRED'));
    expect(expired.actor.getSnapshot().value).toEqual({ loggedOut: 'credentials' });
    expect(expired.actor.getSnapshot().context).toMatchObject({
      error: 'CHALLENGE_EXPIRED',
      challenge: null,
    });

    const wrong = await atCode();
    await wrong.deferreds.reject('checkCode', new Error('SECOND_FACTOR_INVALID'));
    expect(wrong.actor.getSnapshot().value).toEqual({ loggedOut: 'secondFactor' });
    expect(wrong.actor.getSnapshot().context).toMatchObject({
      error: 'SECOND_FACTOR_INVALID',
      challenge: 'ch',
    });
  });
});
