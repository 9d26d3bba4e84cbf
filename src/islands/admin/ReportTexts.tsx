/**
 * /admin/report-texts (issue 21): the monthly report's and statement's per-property settings: landlord type,
 * dispute body and consumer organisation with their web addresses, the landlord's contact, the heat supply's
 * fuel mix and network figures. Checked in the browser with the settings' own zod schema (src/lib), and again
 * on the server; saved changes are audited.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  ReportTextsDocument,
  type ReportTextsFieldsFragment as Texts,
  UpdateReportTextsDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import {
  DEFAULT_REPORT_SETTINGS,
  FUEL_SOURCES,
  type FuelShare,
  mergeReportSettings,
} from '../../lib/reportSettings.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { PropertySelect } from './opsShared.tsx';
import { SettingsError } from './settingsShared.tsx';
import { useOperator } from './useOperator.ts';

export default function ReportTexts({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Page />
    </Providers>
  );
}

function Page() {
  const { t } = useTranslation('admin-settings');
  const operator = useOperator();
  const [propertyId, setPropertyId] = useState('');
  const texts = useQuery({
    queryKey: ['admin', 'reportTexts', propertyId],
    queryFn: () => adminRequest(ReportTextsDocument, { propertyId }),
    enabled: operator !== null && propertyId !== '',
  });
  const data = texts.data?.reportTexts;
  return (
    <div className="stack settings-page">
      <div className="card">
        <PropertySelect value={propertyId} onChange={setPropertyId} />
      </div>
      {propertyId && texts.isError && <SettingsError code={texts.error.message} />}
      {propertyId && !data && !texts.isError && <Spinner label={t('loading')} />}
      {data && <TextsForm key={propertyId} texts={data} />}
    </div>
  );
}

type Values = Record<string, string>;

const TEXT_FIELDS = [
  'disputeBodyName',
  'disputeBodyUrl',
  'consumerOrgName',
  'consumerOrgUrl',
  'contactPhone',
  'contactEmail',
] as const;
const NUMBER_FIELDS = [
  'hotWaterShare',
  'networkYear',
  'networkCo2Tonnes',
  'networkCo2GramPerKwh',
  'primaryEnergyFactor',
] as const;

function valuesOf(texts: Texts): Values {
  const v: Values = { landlordType: texts.landlordType };
  for (const f of [...TEXT_FIELDS, ...NUMBER_FIELDS]) v[f] = texts[f] === null ? '' : String(texts[f]);
  for (const s of (texts.fuelMix as FuelShare[]) ?? []) v[`fuel.${s.source}`] = String(s.percent);
  return v;
}

/** The form's values as the settings input: empty texts and numbers are null, the fuel mix the filled shares. */
function inputOf(v: Values) {
  const text = (f: string) => (v[f]?.trim() ? v[f]!.trim() : null);
  const num = (f: string) => (v[f]?.trim() ? Number(v[f]!.replace(',', '.')) : null);
  return {
    landlordType: v.landlordType,
    disputeBodyName: text('disputeBodyName'),
    disputeBodyUrl: text('disputeBodyUrl'),
    consumerOrgName: text('consumerOrgName'),
    consumerOrgUrl: text('consumerOrgUrl'),
    contactPhone: text('contactPhone'),
    contactEmail: text('contactEmail'),
    hotWaterShare: num('hotWaterShare') ?? DEFAULT_REPORT_SETTINGS.hotWaterShare,
    networkYear: num('networkYear'),
    networkCo2Tonnes: num('networkCo2Tonnes'),
    networkCo2GramPerKwh: num('networkCo2GramPerKwh'),
    primaryEnergyFactor: num('primaryEnergyFactor'),
    fuelMix: FUEL_SOURCES.filter((s) => v[`fuel.${s}`]?.trim()).map((s) => ({
      source: s,
      percent: Number(v[`fuel.${s}`]!.replace(',', '.')),
    })),
  };
}

function TextsForm({ texts }: { texts: Texts }) {
  const { t } = useTranslation(['admin-settings', 'reports']);
  const id = useId();
  const client = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(texts));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (settings: ReturnType<typeof inputOf>) =>
      adminRequest(UpdateReportTextsDocument, { propertyId: texts.propertyId, settings }),
    onSuccess: (r) =>
      client.setQueryData(['admin', 'reportTexts', texts.propertyId], { reportTexts: r.updateReportTexts }),
  });
  const set = (f: string) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    save.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = inputOf(values);
    const { contactPhone: _p, contactEmail: _e, ...settings } = input;
    const checked = mergeReportSettings(DEFAULT_REPORT_SETTINGS, settings);
    const found: Record<string, string> = {};
    if (!checked.ok) for (const p of checked.problems) found[p.field.split('.')[0]!] ??= p.message;
    setProblems(found);
    if (Object.keys(found).length === 0) save.mutate(input);
  };
  const field = (f: string, label: string, type = 'text', hint?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${f}`}>{label}</label>
      <input
        id={`${id}-${f}`}
        type={type}
        inputMode={type === 'number' ? 'decimal' : undefined}
        step={type === 'number' ? 'any' : undefined}
        value={values[f] ?? ''}
        onChange={set(f)}
        aria-invalid={problems[f] ? true : undefined}
        aria-describedby={problems[f] ? `${id}-${f}-e` : hint}
      />
      {problems[f] && (
        <p id={`${id}-${f}-e`} className="field-error">
          {problems[f]}
        </p>
      )}
    </div>
  );
  const total = FUEL_SOURCES.reduce((s, f) => s + (Number(values[`fuel.${f}`]?.replace(',', '.')) || 0), 0);
  const current = save.data?.updateReportTexts ?? texts;
  return (
    <form className="stack settings-form" onSubmit={submit} aria-label={t('texts.save')} noValidate>
      {Object.keys(problems).length > 0 && (
        <div className="alert error" role="alert">
          <p>{t('texts.problems_title')}</p>
          <ul className="settings-problems">
            {Object.entries(problems).map(([f, m]) => (
              <li key={f}>
                <a href={`#${id}-${f === 'fuelMix' ? 'fuel.biomass' : f}`}>{f}</a>: {m}
              </li>
            ))}
          </ul>
        </div>
      )}
      <fieldset className="card stack">
        <legend>{t('texts.landlord_title')}</legend>
        <div className="field">
          <label htmlFor={`${id}-landlordType`}>{t('texts.landlord_type')}</label>
          <select id={`${id}-landlordType`} value={values.landlordType} onChange={set('landlordType')}>
            <option value="private">{t('texts.landlord_private')}</option>
            <option value="social">{t('texts.landlord_social')}</option>
          </select>
        </div>
        <p id={`${id}-url-hint`} className="admin-subtle">
          {t('texts.url_hint')}
        </p>
        <div className="settings-grid">
          {field('disputeBodyName', t('texts.dispute_name'))}
          {field('disputeBodyUrl', t('texts.dispute_url'), 'url', `${id}-url-hint`)}
          {field('consumerOrgName', t('texts.consumer_name'))}
          {field('consumerOrgUrl', t('texts.consumer_url'), 'url', `${id}-url-hint`)}
        </div>
      </fieldset>
      <fieldset className="card stack">
        <legend>{t('texts.contact_title')}</legend>
        <div className="settings-grid">
          {field('contactPhone', t('texts.contact_phone'), 'tel')}
          {field('contactEmail', t('texts.contact_email'), 'email')}
        </div>
      </fieldset>
      <fieldset className="card stack" aria-describedby={`${id}-fuel-hint`}>
        <legend>{t('texts.fuel_title')}</legend>
        <p id={`${id}-fuel-hint`} className="admin-subtle">
          {t('texts.fuel_hint')}
        </p>
        {problems.fuelMix && <p className="field-error">{problems.fuelMix}</p>}
        <div className="settings-grid">
          {FUEL_SOURCES.map((s) => field(`fuel.${s}`, `${t(`reports:fuel.${s}`)} (%)`, 'number'))}
        </div>
        <p aria-live="polite">{t('texts.fuel_total', { total: Math.round(total * 10) / 10 })}</p>
      </fieldset>
      <fieldset className="card stack">
        <legend>{t('texts.network_title')}</legend>
        <div className="settings-grid">
          {field('networkYear', t('texts.network_year'), 'number')}
          {field('networkCo2Tonnes', t('texts.network_co2_tonnes'), 'number')}
          {field('networkCo2GramPerKwh', t('texts.network_gram'), 'number')}
          {field('primaryEnergyFactor', t('texts.primary_factor'), 'number')}
          {field('hotWaterShare', t('texts.hot_water_share'), 'number')}
        </div>
      </fieldset>
      <SettingsError code={save.error?.message} />
      {save.isSuccess && (
        <p className="alert success" role="status">
          {t('saved')}
        </p>
      )}
      <div>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('texts.save')}
        </button>
      </div>
      <section className="card stack" aria-labelledby={`${id}-eff`}>
        <h2 id={`${id}-eff`}>{t('texts.effective_title')}</h2>
        <ul data-testid="effective-bodies">
          {current.effectiveBodies.map((b) => (
            <li key={b.kind}>
              {t(`reports:bodies.${b.kind}` as 'reports:bodies.rent-tribunal', { defaultValue: b.kind })}:{' '}
              <a href={b.url} rel="noreferrer" target="_blank">
                {b.name}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </form>
  );
}
