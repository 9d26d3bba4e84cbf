/**
 * /admin/property?id=…: one property's flats (address, area, rooms) with their measurement points and meters,
 * each flat and point edited in a form; a meter opens its own page (swap, settings, readings).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import {
  PropertyDetailDocument,
  type PropertyDetailQuery,
  type PropertyPointFieldsFragment,
  UpdateApartmentDocument,
  UpdateMeasurementPointDocument,
} from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { idFromQuery } from './opsShared.tsx';
import { NewFlatForm, NewMeterForm, NewPointForm, Opener } from './PropertyCreate.tsx';
import { errorOf, PropsError } from './propsShared.tsx';
import { useOperator } from './useOperator.ts';
import './props.css';

type Flat = PropertyDetailQuery['propertyDetail']['apartments'][number];

export default function PropertyDetail({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <DetailPage />
    </Providers>
  );
}

function DetailPage() {
  const { t } = useTranslation('admin-props');
  const operator = useOperator();
  const [id] = useState(idFromQuery);
  const detail = useQuery({
    queryKey: ['admin', 'propertyDetail', id],
    queryFn: () => adminRequest(PropertyDetailDocument, { id: id! }),
    enabled: operator !== null && id !== null,
  });
  if (id === null) return <PropsError code="MISSING_ID" />;
  if (detail.isError) return <PropsError code={detail.error.message} />;
  if (!detail.data) return <Spinner label={t('loading')} />;
  const { property, apartments, points } = detail.data.propertyDetail;
  return (
    <div className="stack">
      <p>
        <a href="/admin/properties">{t('property.back')}</a>
      </p>
      <h2 data-testid="property-heading">
        {t('title.property', { number: property.number })} · {property.name || property.address}
      </h2>
      <p className="muted">
        {property.address}, {property.zipcode} {property.city}
      </p>
      <Opener label={t('create.flat')}>{(close) => <NewFlatForm propertyId={id} onClose={close} />}</Opener>
      {apartments.map((flat) => (
        <FlatCard key={flat.id} flat={flat} propertyId={id} />
      ))}
      <section className="card stack" aria-labelledby="property-points">
        <h3 id="property-points">{t('property.property_points')}</h3>
        {points.length > 0 ? (
          <PointsTable points={points} caption={t('property.property_points')} propertyId={id} />
        ) : (
          <p className="muted">{t('property.no_points')}</p>
        )}
        <Opener label={t('create.property_point')}>
          {(close) => (
            <NewPointForm
              propertyId={id}
              apartmentId={null}
              label={t('create.property_point')}
              onClose={close}
            />
          )}
        </Opener>
      </section>
    </div>
  );
}

function FlatCard({ flat, propertyId }: { flat: Flat; propertyId: string }) {
  const { t } = useTranslation('admin-props');
  const [editing, setEditing] = useState(false);
  const label = `${flat.address}`;
  return (
    <section className="card stack" aria-labelledby={`flat-${flat.id}`} data-testid={`flat-${flat.uniqueId}`}>
      <div className="admin-toolbar">
        <h3 id={`flat-${flat.id}`} className="props-heading">
          {flat.address}
        </h3>
        {!editing && (
          <button
            type="button"
            className="button ghost"
            aria-label={t('property.edit_flat', { flat: label })}
            onClick={() => setEditing(true)}
          >
            {t('edit')}
          </button>
        )}
      </div>
      {editing ? (
        <FlatForm flat={flat} propertyId={propertyId} onClose={() => setEditing(false)} />
      ) : (
        <dl className="admin-facts">
          <div>
            <dt>{t('property.unique_id')}</dt>
            <dd>{flat.uniqueId}</dd>
          </div>
          <div>
            <dt>{t('property.apartment')}</dt>
            <dd>{flat.apartment}</dd>
          </div>
          <div>
            <dt>{t('property.area')}</dt>
            <dd>{t('property.area_value', { area: flat.areaM2 })}</dd>
          </div>
          <div>
            <dt>{t('property.rooms')}</dt>
            <dd>{flat.rooms}</dd>
          </div>
        </dl>
      )}
      {flat.points.length ? (
        <PointsTable
          points={flat.points}
          caption={t('property.points_caption', { flat: label })}
          propertyId={propertyId}
        />
      ) : (
        <p className="muted">{t('property.no_points')}</p>
      )}
      <Opener label={t('create.point', { flat: label })}>
        {(close) => (
          <NewPointForm
            propertyId={propertyId}
            apartmentId={flat.id}
            label={t('create.point', { flat: label })}
            onClose={close}
          />
        )}
      </Opener>
    </section>
  );
}

function FlatForm({ flat, propertyId, onClose }: { flat: Flat; propertyId: string; onClose: () => void }) {
  const { t } = useTranslation('admin-props');
  const client = useQueryClient();
  const [v, setV] = useState({
    apartment: flat.apartment,
    address: flat.address,
    zipcode: flat.zipcode,
    city: flat.city,
    areaM2: flat.areaM2,
    rooms: String(flat.rooms),
  });
  const save = useMutation({
    mutationFn: () =>
      adminRequest(UpdateApartmentDocument, {
        input: { id: flat.id, ...v, rooms: Number.parseInt(v.rooms, 10) || 0 },
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['admin', 'propertyDetail', propertyId] });
      onClose();
    },
  });
  const failure = errorOf(save.error);
  const field = (name: keyof typeof v, label: string, extra: Record<string, string> = {}) => (
    <div className="field">
      <label htmlFor={`flat-${flat.id}-${name}`}>{label}</label>
      <input
        id={`flat-${flat.id}-${name}`}
        required
        // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click; focus follows it
        autoFocus={name === 'apartment'}
        value={v[name]}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        {...extra}
      />
    </div>
  );
  return (
    <form
      className="stack"
      aria-label={t('property.edit_flat', { flat: flat.address })}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="props-fields">
        {field('apartment', t('property.apartment'))}
        {field('address', t('property.address'))}
        {field('zipcode', t('property.zipcode'))}
        {field('city', t('property.city'))}
        {field('areaM2', t('property.area_m2'), { inputMode: 'decimal' })}
        {field('rooms', t('property.rooms'), { inputMode: 'numeric' })}
      </div>
      <PropsError code={failure?.code} />
      <div className="admin-toolbar">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
        <button type="button" className="button ghost" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

function PointsTable({
  points,
  caption,
  propertyId,
}: {
  points: PropertyPointFieldsFragment[];
  caption: string;
  propertyId: string;
}) {
  const { t } = useTranslation(['admin-props', 'domain']);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const chosen = points.find((p) => p.id === editing);
  const addTo = points.find((p) => p.id === adding);
  return (
    <>
      <div className="admin-table-wrap">
        <table className="admin-table props-points">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('property.point_name')}</th>
              <th scope="col">{t('property.quantity')}</th>
              <th scope="col">{t('property.room')}</th>
              <th scope="col">{t('property.meters')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.name}</th>
                <td>{t(quantityKey(p.quantity))}</td>
                <td>{p.room ?? '—'}</td>
                <td>
                  {p.meters.map((m) => (
                    <span key={m.id} className="admin-meter">
                      <a href={`/admin/meter?id=${m.id}`}>{m.number}</a>
                      {m.removedAt && <span className="admin-subtle"> ({t('property.removed')})</span>}{' '}
                    </span>
                  ))}
                </td>
                <td>
                  <button
                    type="button"
                    className="button ghost"
                    aria-label={t('property.edit_point', { name: p.name })}
                    onClick={() => {
                      setAdding(null);
                      setEditing(p.id);
                    }}
                  >
                    {t('edit')}
                  </button>{' '}
                  <button
                    type="button"
                    className="button ghost"
                    aria-label={t('create.meter', { name: p.name })}
                    onClick={() => {
                      setEditing(null);
                      setAdding(p.id);
                    }}
                  >
                    {t('create.add_meter')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {chosen && (
        <PointForm key={chosen.id} point={chosen} propertyId={propertyId} onClose={() => setEditing(null)} />
      )}
      {addTo && (
        <NewMeterForm
          key={addTo.id}
          propertyId={propertyId}
          pointId={addTo.id}
          quantity={addTo.quantity}
          label={t('create.meter', { name: addTo.name })}
          onClose={() => setAdding(null)}
        />
      )}
    </>
  );
}

function PointForm({
  point,
  propertyId,
  onClose,
}: {
  point: PropertyPointFieldsFragment;
  propertyId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin-props');
  const client = useQueryClient();
  const [name, setName] = useState(point.name);
  const [room, setRoom] = useState(point.room ?? '');
  const save = useMutation({
    mutationFn: () =>
      adminRequest(UpdateMeasurementPointDocument, { input: { id: point.id, name, room: room || null } }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['admin', 'propertyDetail', propertyId] });
      onClose();
    },
  });
  const failure = errorOf(save.error);
  return (
    <form
      className="stack"
      aria-label={t('property.edit_point', { name: point.name })}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={`point-${point.id}-name`}>{t('property.point_name')}</label>
        <input
          id={`point-${point.id}-name`}
          required
          // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click; focus follows it
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`point-${point.id}-room`}>{t('property.room')}</label>
        <input id={`point-${point.id}-room`} value={room} onChange={(e) => setRoom(e.target.value)} />
      </div>
      <PropsError code={failure?.code} />
      <div className="admin-toolbar">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </button>
        <button type="button" className="button ghost" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
