import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/client/i18n.ts';
import { lower, orFallback } from '../../src/client/i18nKeys.ts';
import { alarmReason, firedReason } from '../../src/lib/alarmReasons.ts';
import { quantityKey } from '../../src/lib/quantities.ts';

describe('typed translation keys', () => {
  const t = serverT('en');

  it('type-checks keys against locales/en (tsc fails when an expect-error line compiles)', () => {
    expect(t('login.title')).toBe('Log in');
    expect(t('domain:alarms.frequency.week')).toBe('Weekly');
    // @ts-expect-error a key English does not have
    expect(t('login.no_such_key')).toBe('login.no_such_key');
    // @ts-expect-error a default value does not excuse a missing key (strictKeyChecks)
    expect(t('login.no_such_key', 'Fallback')).toBe('Fallback');
    // @ts-expect-error a namespace's key without its prefix is not common's
    t('alarms.frequency.week');
  });

  it('falls back to a checked key for a code no locale knows, and uses the code when it knows it', () => {
    expect(t(orFallback('admin:errors.NO_SUCH_CODE', 'admin:errors.UNKNOWN'))).toBe(
      t('admin:errors.UNKNOWN'),
    );
    expect(t(orFallback('admin:errors.FORBIDDEN', 'admin:errors.UNKNOWN'))).not.toBe(
      t('admin:errors.UNKNOWN'),
    );
    expect(t(orFallback(['admin-ops:errors.NO', 'admin:errors.FORBIDDEN'], 'admin:errors.UNKNOWN'))).toBe(
      t('admin:errors.FORBIDDEN'),
    );
    expect(
      t(orFallback('consumption:price.charge.new-kind', 'consumption:price.charge_unknown'), { kind: 'x' }),
    ).toBe('x');
  });

  it('builds the keys of closed sets', () => {
    expect(t(`domain:alarms.frequency.${lower('MONTH')}`)).toBe('Monthly');
    expect(t(quantityKey('heat-energy'))).toBe('Heat energy');
    expect(firedReason('leak')).toBe('leak');
    expect(firedReason(null)).toBe('above_threshold');
    expect(firedReason('missing_data')).toBe('above_threshold');
    expect(alarmReason('missing_data')).toBe('missing_data');
    expect(alarmReason('something_new')).toBe('above_threshold');
  });
});
