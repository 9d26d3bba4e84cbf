/**
 * The property page's create forms (issue 21): a new flat, a measurement point (of a flat or of the property)
 * and a meter on a point. Each opens on a button, moves focus to its first field, shows the backend's coded
 * refusal, and on success reloads the property and returns focus to the button.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  CreateApartmentDocument,
  CreateMeasurementPointDocument,
  CreateMeterDocument,
} from '../../client/gql/admin.ts';
import {
  LEGACY_KINDS,
  legacyKindOfQuantity,
  QUANTITY_IDS,
  type QuantityId,
  quantityKey,
} from '../../lib/quantities.ts';
import { errorOf, fromLocalInput, PropsError } from './propsShared.tsx';

/** A button that opens a form in place; Cancel or a save closes it and gives focus back to the button. */
export function Opener({ label, children }: { label: string; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Focus goes back once the button is in the document again: after the commit that closed the form, not on a
  // timer, which could run before that commit on a busy machine (seen in CI: focus stayed on the body).
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const close = () => setOpen(false);
  return (
    <div className="stack">
      {!open && (
        <div>
          <button ref={button} type="button" className="button ghost" onClick={() => setOpen(true)}>
            {label}
          </button>
        </div>
      )}
      {open && children(close)}
    </div>
  );
}

type Values = Record<string, string>;

function useCreate<T>(propertyId: string, request: () => Promise<T>, onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['admin', 'propertyDetail', propertyId] });
      onDone();
    },
  });
}

function Field({
  id,
  label,
  value,
  onChange,
  required = true,
  hint,
  first = false,
  ...extra
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  required?: boolean;
  hint?: string;
  first?: boolean;
} & Record<string, unknown>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        required={required}
        // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click; focus follows it
        autoFocus={first}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
        {...extra}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function Buttons({ pending, onCancel }: { pending: boolean; onCancel: () => void }) {
  const { t } = useTranslation('admin-props');
  return (
    <div className="admin-toolbar">
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? t('saving') : t('create.add')}
      </button>
      <button type="button" className="button ghost" onClick={onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}

/** A new flat of the property. */
export function NewFlatForm({ propertyId, onClose }: { propertyId: string; onClose: () => void }) {
  const { t } = useTranslation('admin-props');
  const base = useId();
  const [v, setV] = useState<Values>({
    uniqueId: '',
    apartment: '',
    address: '',
    zipcode: '',
    city: '',
    areaM2: '',
    rooms: '',
  });
  const save = useCreate(
    propertyId,
    () =>
      adminRequest(CreateApartmentDocument, {
        input: {
          propertyId,
          uniqueId: v.uniqueId!,
          apartment: v.apartment!,
          address: v.address!,
          zipcode: v.zipcode!,
          city: v.city!,
          areaM2: v.areaM2!,
          rooms: Number.parseInt(v.rooms!, 10) || 0,
        },
      }),
    onClose,
  );
  const field = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field
      id={`${base}-${name}`}
      label={label}
      value={v[name]!}
      onChange={(value) => setV({ ...v, [name]: value })}
      first={name === 'uniqueId'}
      {...extra}
    />
  );
  return (
    <form
      className="stack card"
      aria-label={t('create.flat')}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3>{t('create.flat')}</h3>
      <div className="props-fields">
        {field('uniqueId', t('property.unique_id'), { hint: t('create.unique_id_hint') })}
        {field('apartment', t('property.apartment'))}
        {field('address', t('property.address'))}
        {field('zipcode', t('property.zipcode'))}
        {field('city', t('property.city'))}
        {field('areaM2', t('property.area_m2'), { inputMode: 'decimal' })}
        {field('rooms', t('property.rooms'), { inputMode: 'numeric' })}
      </div>
      <PropsError code={errorOf(save.error)?.code} />
      <Buttons pending={save.isPending} onCancel={onClose} />
    </form>
  );
}

/** A new measurement point of a flat, or of the property itself (apartmentId null). */
export function NewPointForm({
  propertyId,
  apartmentId,
  label,
  onClose,
}: {
  propertyId: string;
  apartmentId: string | null;
  label: string;
  onClose: () => void;
}) {
  const { t } = useTranslation(['admin-props', 'domain']);
  const base = useId();
  const [quantity, setQuantity] = useState<string>(apartmentId ? 'heat-energy' : 'outdoor-temperature');
  const [name, setName] = useState('');
  const [room, setRoom] = useState('');
  const save = useCreate(
    propertyId,
    () =>
      adminRequest(CreateMeasurementPointDocument, {
        input: { propertyId, apartmentId, quantity, name, room: room || null },
      }),
    onClose,
  );
  return (
    <form
      className="stack"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="props-fields">
        <div className="field">
          <label htmlFor={`${base}-quantity`}>{t('property.quantity')}</label>
          <select
            id={`${base}-quantity`}
            value={quantity}
            // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click; focus follows it
            autoFocus
            onChange={(e) => setQuantity(e.target.value)}
          >
            {QUANTITY_IDS.map((q) => (
              <option key={q} value={q}>
                {t(quantityKey(q))}
              </option>
            ))}
          </select>
        </div>
        <Field id={`${base}-name`} label={t('property.point_name')} value={name} onChange={setName} />
        <Field
          id={`${base}-room`}
          label={t('property.room')}
          value={room}
          onChange={setRoom}
          required={false}
        />
      </div>
      <PropsError code={errorOf(save.error)?.code} />
      <Buttons pending={save.isPending} onCancel={onClose} />
    </form>
  );
}

/**
 * A new meter on a point whose other meters are removed by then. A point whose quantity has no legacy meter kind
 * of its own (SPEC §3's kind names) asks for one.
 */
export function NewMeterForm({
  propertyId,
  pointId,
  quantity,
  label,
  onClose,
}: {
  propertyId: string;
  pointId: string;
  quantity: string;
  label: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin-props');
  const base = useId();
  const [number, setNumber] = useState('');
  const [installed, setInstalled] = useState('');
  const [radioId, setRadioId] = useState('');
  const needsKind = legacyKindOfQuantity(quantity as QuantityId) === null;
  const [legacyKind, setLegacyKind] = useState('');
  const save = useCreate(
    propertyId,
    () =>
      adminRequest(CreateMeterDocument, {
        input: {
          measurementPointId: pointId,
          number,
          installedAt: fromLocalInput(installed),
          radioId: radioId || null,
          ...(needsKind ? { legacyKind } : {}),
        },
      }),
    onClose,
  );
  return (
    <form
      className="stack"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="props-fields">
        <Field
          id={`${base}-number`}
          label={t('create.meter_number')}
          value={number}
          onChange={setNumber}
          first
        />
        <Field
          id={`${base}-installed`}
          label={t('meter.installed_at')}
          value={installed}
          onChange={setInstalled}
          type="datetime-local"
        />
        <Field
          id={`${base}-radio`}
          label={t('meter.radio_id')}
          value={radioId}
          onChange={setRadioId}
          required={false}
          hint={t('meter.radio_hint')}
        />
        {needsKind && (
          <div className="field">
            <label htmlFor={`${base}-kind`}>{t('create.legacy_kind')}</label>
            <select
              id={`${base}-kind`}
              required
              value={legacyKind}
              aria-describedby={`${base}-kind-hint`}
              onChange={(e) => setLegacyKind(e.target.value)}
            >
              <option value="">{t('create.legacy_kind_choose')}</option>
              {LEGACY_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
            <p className="hint" id={`${base}-kind-hint`}>
              {t('create.legacy_kind_hint')}
            </p>
          </div>
        )}
      </div>
      <PropsError code={errorOf(save.error)?.code} />
      <Buttons pending={save.isPending} onCancel={onClose} />
    </form>
  );
}
