/** The throttle answer on the plain-script pages: the wait filled in, singular for one minute. */
import { describe, expect, it } from 'vitest';
import { throttleAwareMessage } from '../../src/lib/errors.ts';

const messages = {
  errors: {
    too_many_attempts: 'For mange forsøg. Prøv igen om {{minutes}} minutter.',
    invalid_credentials: 'Forkert e-mail eller adgangskode.',
  },
  wait_one_minute: 'For mange forsøg. Prøv igen om 1 minut.',
};
const throttled = (seconds: number) => ({
  response: {
    errors: [
      { message: 'Too many attempts', extensions: { code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: seconds } },
    ],
  },
});

describe('throttleAwareMessage', () => {
  it('fills in the minutes, rounded up, and uses the singular text for one minute', () => {
    expect(throttleAwareMessage('too_many_attempts', throttled(840), messages, 'x')).toBe(
      'For mange forsøg. Prøv igen om 14 minutter.',
    );
    expect(throttleAwareMessage('too_many_attempts', throttled(30), messages, 'x')).toBe(
      'For mange forsøg. Prøv igen om 1 minut.',
    );
  });
  it('passes other messages through, and falls back for a code without one', () => {
    expect(throttleAwareMessage('invalid_credentials', null, messages, 'x')).toBe(
      'Forkert e-mail eller adgangskode.',
    );
    expect(throttleAwareMessage('unknown', null, messages, 'fallback')).toBe('fallback');
  });
});
