/**
 * The one change form of /admin/prices: a new period of a price, fixed charge or CO₂ factor, or a correction of a
 * period's amount. Step one shows what the change touches (the server's preview); any edit takes the form back
 * to step one; saving a change of figures already shown needs the confirmation and a reason.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  AddRatePeriodDocument,
  CorrectRateDocument,
  type RateImpactFieldsFragment as Impact,
  type RatePeriodFieldsFragment as Period,
  PreviewRateCorrectionDocument,
  PreviewRatePeriodDocument,
  type RateKind,
} from '../../client/gql/admin.ts';
import { CONSUMPTION_QUANTITIES } from '../../lib/quantities.ts';
import { ConfirmChange, confirmationReady, ImpactPanel, SettingsError } from './settingsShared.tsx';

export type Target = { type: 'new'; kind: RateKind } | { type: 'correct'; period: Period };

interface Props {
  propertyId: string;
  target: Target;
  onCancel: () => void;
  onSaved: () => void;
}

export function ChangeCard({ propertyId, target, onCancel, onSaved }: Props) {
  const { t } = useTranslation(['admin-settings', 'domain']);
  const id = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const kind = target.type === 'new' ? target.kind : target.period.kind;
  const isCharge = kind === 'FIXED_CHARGE';
  const isCo2 = kind === 'CO2_FACTOR';
  const [quantity, setQuantity] = useState('');
  const [chargeKind, setChargeKind] = useState('');
  const [amount, setAmount] = useState(target.type === 'correct' ? target.period.amount : '');
  const [currency, setCurrency] = useState('DKK');
  const [validFrom, setValidFrom] = useState('');
  const [impact, setImpact] = useState<Impact | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [reason, setReason] = useState('');
  useEffect(() => titleRef.current?.focus(), []);

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setImpact(null);
      setConfirmed(false);
    };
  const rateInput = () => ({
    propertyId,
    kind,
    quantity: quantity || null,
    chargeKind: isCharge ? chargeKind.trim() : null,
    amount: amount.trim(),
    currency: isCo2 ? null : currency,
    validFrom,
  });
  const preview = useMutation({
    mutationFn: async (): Promise<Impact> => {
      if (target.type === 'new')
        return (await adminRequest(PreviewRatePeriodDocument, { input: rateInput() })).previewRatePeriod;
      return (
        await adminRequest(PreviewRateCorrectionDocument, {
          input: { id: target.period.id, kind: target.period.kind, amount: amount.trim() },
        })
      ).previewRateCorrection;
    },
    onSuccess: setImpact,
  });
  const needsConfirm = target.type !== 'new' || impact?.changesPast === true;
  const save = useMutation({
    mutationFn: async () => {
      const extra = needsConfirm ? { confirm: confirmed, reason: reason.trim() } : {};
      if (target.type === 'new') await adminRequest(AddRatePeriodDocument, { input: rateInput(), ...extra });
      else
        await adminRequest(CorrectRateDocument, {
          input: { id: target.period.id, kind: target.period.kind, amount: amount.trim() },
          ...extra,
        });
    },
    onSuccess: onSaved,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!impact) preview.mutate();
    else save.mutate();
  };
  const title =
    target.type === 'new'
      ? t(isCharge ? 'change.new_charge_title' : isCo2 ? 'change.new_co2_title' : 'change.new_price_title')
      : t('change.correct_title', {
          name: target.period.chargeKind ?? target.period.quantity ?? '',
          from: target.period.validFrom ?? t('co2.beginning'),
        });
  const quantityField = (required: boolean) => (
    <div className="field">
      <label htmlFor={`${id}-q`}>{t('rates.quantity')}</label>
      <select
        id={`${id}-q`}
        required={required}
        value={quantity}
        onChange={(e) => edit(setQuantity)(e.target.value)}
      >
        <option value="">{required ? t('change.choose_quantity') : t('whole_tenancy')}</option>
        {CONSUMPTION_QUANTITIES.map((q) => (
          <option key={q} value={q}>
            {t(`domain:quantities.${q}`)}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      className="card stack settings-form"
      aria-labelledby={`${id}-t`}
      onSubmit={submit}
      data-testid="change-form"
    >
      <h2 id={`${id}-t`} ref={titleRef} tabIndex={-1}>
        {title}
      </h2>
      <p className="admin-subtle">
        {target.type === 'new' ? t('change.new_hint') : t('change.correct_hint')}
      </p>
      <div className="settings-grid">
        {target.type === 'new' && quantityField(!isCharge)}
        {isCharge && (
          <div className="field">
            <label htmlFor={`${id}-k`}>{t('rates.charge_kind')}</label>
            <input
              id={`${id}-k`}
              required
              pattern="[a-z][a-z0-9\-]{0,39}"
              placeholder="meter-rent"
              value={chargeKind}
              onChange={(e) => edit(setChargeKind)(e.target.value)}
            />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-a`}>
            {isCo2 ? t('co2.grams') : isCharge ? t('rates.per_year') : t('rates.price')}
          </label>
          <input
            id={`${id}-a`}
            required
            inputMode="decimal"
            pattern="\d+(\.\d+)?"
            value={amount}
            onChange={(e) => edit(setAmount)(e.target.value)}
          />
        </div>
        {target.type === 'new' && (
          <>
            {!isCo2 && (
              <div className="field">
                <label htmlFor={`${id}-c`}>{t('change.currency')}</label>
                <input
                  id={`${id}-c`}
                  required
                  pattern="[A-Z]{3}"
                  maxLength={3}
                  value={currency}
                  onChange={(e) => edit(setCurrency)(e.target.value.toUpperCase())}
                />
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-f`}>{t('change.valid_from')}</label>
              <input
                id={`${id}-f`}
                type="date"
                required
                value={validFrom}
                onChange={(e) => edit(setValidFrom)(e.target.value)}
              />
            </div>
          </>
        )}
      </div>
      <SettingsError code={preview.error?.message ?? save.error?.message} />
      <div aria-live="polite">{impact && <ImpactPanel impact={impact} />}</div>
      {impact && needsConfirm && (
        <ConfirmChange
          confirmed={confirmed}
          reason={reason}
          onConfirmed={setConfirmed}
          onReason={setReason}
        />
      )}
      <div className="settings-actions">
        {!impact ? (
          <button type="submit" className="button primary" disabled={preview.isPending}>
            {t('change.preview')}
          </button>
        ) : (
          <button
            type="submit"
            className="button primary"
            disabled={save.isPending || (needsConfirm && !confirmationReady(confirmed, reason))}
          >
            {t('change.save')}
          </button>
        )}
        <button type="button" className="button ghost" onClick={onCancel}>
          {t('change.cancel')}
        </button>
      </div>
    </form>
  );
}
