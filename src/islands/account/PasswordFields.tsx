/** Password and confirmation fields with the live SPEC §5 rule checklist, shared by signup, reset and profile. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { confirmPasswordError, PasswordError } from '../../lib/validation.ts';

const RULES: Array<[PasswordError, `rule_${'length' | 'capital' | 'lowercase' | 'digit' | 'special'}`]> = [
  ['password_too_short', 'rule_length'],
  ['password_no_capital', 'rule_capital'],
  ['password_no_lowercase', 'rule_lowercase'],
  ['password_no_digit', 'rule_digit'],
  ['password_no_special', 'rule_special'],
];

interface Props {
  password: string;
  confirm: string;
  errors: PasswordError[];
  confirmError: ReturnType<typeof confirmPasswordError>;
  showErrors: boolean;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  passwordLabel?: string;
  confirmLabel?: string;
}

/** The two fields and the checklist. */
export function PasswordFields(props: Props) {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const rulesId = `${id}-rules`;
  const other = props.errors.filter((e) => !RULES.some(([r]) => r === e));
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-pw`}>{props.passwordLabel ?? t('account:signup.password')}</label>
        <input
          id={`${id}-pw`}
          type="password"
          autoComplete="new-password"
          value={props.password}
          aria-invalid={props.showErrors && props.errors.length > 0 ? true : undefined}
          aria-describedby={rulesId}
          onChange={(e) => props.onPassword(e.target.value)}
        />
        <div id={rulesId} className="small">
          <p className="muted">{t('account:signup.rules')}</p>
          <ul className="password-rules">
            {RULES.map(([error, key]) => {
              const ok = !props.errors.includes(error);
              return (
                <li key={key} className={ok ? 'rule-ok' : props.showErrors ? 'field-error' : 'muted'}>
                  <span aria-hidden="true">{ok ? '✓ ' : '• '}</span>
                  {t(`account:signup.${key}`)}
                  <span className="visually-hidden">
                    {' '}
                    ({ok ? t('account:signup.rule_met') : t('account:signup.rule_not_met')})
                  </span>
                </li>
              );
            })}
          </ul>
          {props.showErrors &&
            other.map((e) => (
              <p key={e} className="field-error" role="alert">
                {t(`domain:validation.${e}`)}
              </p>
            ))}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>{props.confirmLabel ?? t('account:signup.confirm')}</label>
        <input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          value={props.confirm}
          aria-invalid={props.confirmError ? true : undefined}
          aria-describedby={props.confirmError ? `${id}-confirm-error` : undefined}
          onChange={(e) => props.onConfirm(e.target.value)}
        />
        {props.confirmError && (
          <p id={`${id}-confirm-error`} className="field-error" role="alert">
            {t(`domain:validation.${props.confirmError}`)}
          </p>
        )}
      </div>
    </>
  );
}
