/**
 * The meter page's swap (issue 21), an XState flow (meterSwap.machine.ts): the time and both readings, a check of
 * what will be stored, then the save; a refusal returns to the form with the backend's reason.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { adminRequest } from '../../client/admin/session.ts';
import { type AdminMeterFieldsFragment, SwapMeterDocument } from '../../client/gql/admin.ts';
import { meterSwapMachine } from '../../machines/meterSwap.machine.ts';
import { fromLocalInput, PropsError } from './propsShared.tsx';

export function SwapFlow({ meter, onClose }: { meter: AdminMeterFieldsFragment; onClose: () => void }) {
  const { t } = useTranslation('admin-props');
  const client = useQueryClient();
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [state, send] = useMachine(
    meterSwapMachine.provide({
      actors: {
        swapMeter: fromPromise(async ({ input }) => {
          setFailure(undefined);
          const r = await adminRequest(SwapMeterDocument, { input }).catch((err: unknown) => {
            const reason = (err as { extensions?: { reason?: unknown } }).extensions?.reason;
            setFailure(typeof reason === 'string' ? reason : undefined);
            throw err;
          });
          await client.invalidateQueries({ queryKey: ['admin', 'meter', meter.id] });
          return r.swapMeter;
        }),
      },
    }),
    {
      input: {
        meterId: meter.id,
        meterNumber: meter.number,
        installedAt: meter.installedAt,
        lastReadingAt: meter.readings[0]?.ts ?? null,
        now: new Date().toISOString(),
      },
    },
  );
  const c = state.context;
  if (state.matches('done') || state.matches('cancelled')) {
    return (
      <div className="card stack" data-testid="swap-done">
        <p className="alert success" role="status">
          {state.matches('done')
            ? t('swap.done', { old: meter.number, meter: c.newMeter.trim() })
            : t('swap.cancelled')}
        </p>
        <div className="admin-toolbar">
          <button type="button" className="button ghost" onClick={onClose}>
            {t('close')}
          </button>
        </div>
      </div>
    );
  }
  const confirming = state.matches('confirming') || state.matches('saving');
  const busy = state.matches('saving');
  return (
    <form
      className="card stack"
      // The machine checks the fields (its guards), with the page's own texts.
      noValidate
      aria-labelledby="swap-title"
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: confirming ? 'confirm' : 'submit' });
      }}
    >
      <h3 id="swap-title">
        {confirming ? t('swap.confirm_title') : t('swap.title', { meter: meter.number })}
      </h3>
      <PropsError code={c.error} detail={failure} />
      {!confirming ? (
        <>
          <p className="muted">{t('swap.intro')}</p>
          <div className="props-fields">
            <div className="field">
              <label htmlFor="swap-at">{t('swap.at')}</label>
              <input
                id="swap-at"
                type="datetime-local"
                required
                // biome-ignore lint/a11y/noAutofocus: the flow opens on the operator's click; focus follows it
                autoFocus
                value={c.atLocal}
                onChange={(e) =>
                  send({ type: 'at.change', local: e.target.value, iso: fromLocalInput(e.target.value) })
                }
              />
            </div>
            <div className="field">
              <label htmlFor="swap-end">{t('swap.end_value')}</label>
              <input
                id="swap-end"
                inputMode="decimal"
                aria-describedby="swap-end-hint"
                value={c.endValue}
                onChange={(e) => send({ type: 'field.change', field: 'endValue', value: e.target.value })}
              />
              <p id="swap-end-hint" className="admin-subtle">
                {t('swap.end_hint')}
              </p>
            </div>
            <div className="field">
              <label htmlFor="swap-new">{t('swap.new_meter')}</label>
              <input
                id="swap-new"
                required
                value={c.newMeter}
                onChange={(e) => send({ type: 'field.change', field: 'newMeter', value: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor="swap-start">{t('swap.start_value')}</label>
              <input
                id="swap-start"
                inputMode="decimal"
                required
                value={c.startValue}
                onChange={(e) => send({ type: 'field.change', field: 'startValue', value: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor="swap-radio">{t('swap.radio_id')}</label>
              <input
                id="swap-radio"
                value={c.radioId}
                onChange={(e) => send({ type: 'field.change', field: 'radioId', value: e.target.value })}
              />
            </div>
          </div>
          <div className="admin-toolbar">
            <button type="submit" className="button primary">
              {t('swap.next')}
            </button>
            <button type="button" className="button ghost" onClick={() => send({ type: 'cancel' })}>
              {t('cancel')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('swap.confirm_intro')}</p>
          <dl className="admin-facts" data-testid="swap-summary">
            <div>
              <dt>{t('swap.at')}</dt>
              <dd>{c.atLocal.replace('T', ' ')}</dd>
            </div>
            <div>
              <dt>{t('swap.end_value')}</dt>
              <dd>{c.endValue.trim() || t('swap.not_read')}</dd>
            </div>
            <div>
              <dt>{t('swap.new_meter')}</dt>
              <dd>{c.newMeter.trim()}</dd>
            </div>
            <div>
              <dt>{t('swap.start_value')}</dt>
              <dd>{c.startValue.trim()}</dd>
            </div>
            <div>
              <dt>{t('swap.radio_id')}</dt>
              <dd>{c.radioId.trim() || '—'}</dd>
            </div>
          </dl>
          <div className="admin-toolbar">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? t('saving') : t('swap.confirm')}
            </button>
            <button
              type="button"
              className="button ghost"
              disabled={busy}
              onClick={() => send({ type: 'back' })}
            >
              {t('swap.back')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
