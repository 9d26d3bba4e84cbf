/**
 * /t/{id}/settings (SPEC §3 tenancy info): address, dates, the property's contact, users with admin flag and
 * pending invitations. Admins invite, resend, make admin and remove; the server refuses the rest.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import {
  inviteToTenancy,
  removeTenancyUser,
  resendInvitation,
  setTenancyAdmin,
  type TenancySettings,
  tenancySettingsQueryOptions,
  useTenancySettings,
} from '../../client/operations/tenancySettings.ts';
import { errorMessageKey, type ServerErrorCode, serverErrorCode } from '../../lib/errors.ts';
import type { Language } from '../../lib/languages.ts';
import { dateLocale, parseLanguage } from '../../lib/languages.ts';
import { normalizeEmail, validateEmail } from '../../lib/validation.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';
import { Modal } from '../shell/Modal.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';

/** The island. */
export default function TenancySettingsPage({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Settings />
    </Providers>
  );
}

function Settings() {
  const { t } = useTranslation('account');
  const tenancyId = useSession((s) =>
    s.matches({ loggedIn: { tenancy: 'withTenancies' } }) ? s.context.selectedTenancyId : null,
  );
  if (!tenancyId) return <Spinner label={t('loading')} />;
  return <Loaded tenancyId={tenancyId} />;
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} className="card-header">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Loaded({ tenancyId }: { tenancyId: string }) {
  const { t, i18n } = useTranslation(['account', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const query = useTenancySettings(tenancyId);
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<{ code: ServerErrorCode; raw: unknown } | null>(null);
  // The member a confirmation is open for: removing them, or (on yourself) dropping your own admin flag.
  const [confirming, setConfirming] = useState<{ kind: 'remove' | 'unadmin_self'; member: Member } | null>(
    null,
  );
  if (query.isPending) return <Spinner label={t('account:loading')} />;
  if (query.isError) return <ErrorAlert code={serverErrorCode(query.error)} raw={query.error} />;
  const s: TenancySettings = query.data;
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: tenancySettingsQueryOptions(tenancyId).queryKey });
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setFailure(null);
    try {
      await work();
      if (done) toast.success(done);
    } catch (err) {
      setFailure({ code: serverErrorCode(err), raw: err });
      toast.error(t(`domain:${errorMessageKey(serverErrorCode(err))}`));
    }
    await refresh();
  };
  // A calendar date (YYYY-MM-DD) in the user's language; noon UTC keeps it on the same day everywhere.
  const date = (d: string) =>
    new Intl.DateTimeFormat(dateLocale(lang), { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${d}T12:00:00Z`),
    );
  return (
    <div className="tenancy-settings">
      <Card title={t('account:settings.address')}>
        <p>
          {s.address}
          <br />
          {s.zipcode} {s.city}
        </p>
        <dl>
          <dt>{t('account:settings.moving_in')}</dt>
          <dd>{date(s.start)}</dd>
          <dt>{t('account:settings.moving_out')}</dt>
          <dd>{s.end ? date(s.end) : t('account:settings.still_living')}</dd>
        </dl>
      </Card>
      {(s.contact.phone || s.contact.email) && (
        <Card title={t('account:settings.contact')}>
          {s.propertyName && <p>{s.propertyName}</p>}
          {s.contact.phone && <p>{t('account:settings.phone', { phone: s.contact.phone })}</p>}
          {s.contact.email && (
            <p>
              <a href={`mailto:${s.contact.email}`}>
                {t('account:settings.email', { email: s.contact.email })}
              </a>
            </p>
          )}
        </Card>
      )}
      <Card title={t('account:settings.users')}>
        <ErrorAlert code={failure?.code ?? null} raw={failure?.raw} />
        <ul className="plain-list" data-testid="members">
          {s.members.map((m) => (
            <li key={m.userId} className="row-between">
              <span>
                {m.name || m.email} {m.name ? <span className="muted small">{m.email}</span> : null}{' '}
                {m.isMe && <span className="muted small">{t('account:settings.you')}</span>}{' '}
                {m.isAdmin && <span className="badge">{t('account:settings.admin')}</span>}
              </span>
              {s.isAdmin && (
                <span>
                  <button
                    type="button"
                    className="button secondary"
                    onClick={() =>
                      m.isMe && m.isAdmin
                        ? setConfirming({ kind: 'unadmin_self', member: m })
                        : act(() => setTenancyAdmin(tenancyId, m.userId, !m.isAdmin))
                    }
                  >
                    {m.isAdmin ? t('account:settings.remove_admin') : t('account:settings.make_admin')}
                  </button>{' '}
                  {!m.isMe && (
                    <button
                      type="button"
                      className="button danger"
                      onClick={() => setConfirming({ kind: 'remove', member: m })}
                    >
                      {t('account:settings.remove')}
                    </button>
                  )}
                </span>
              )}
            </li>
          ))}
        </ul>
        {confirming && (
          <ConfirmMember
            kind={confirming.kind}
            email={confirming.member.email}
            onCancel={() => setConfirming(null)}
            onConfirm={async () => {
              const { kind, member } = confirming;
              setConfirming(null);
              await (kind === 'remove'
                ? act(
                    () => removeTenancyUser(tenancyId, member.userId),
                    t('account:settings.removed', { email: member.email }),
                  )
                : act(() => setTenancyAdmin(tenancyId, member.userId, false)));
            }}
          />
        )}
      </Card>
      <Card title={t('account:settings.invitations')}>
        {s.pendingInvitations.length === 0 ? (
          <p className="muted">{t('account:settings.no_invitations')}</p>
        ) : (
          <ul className="plain-list" data-testid="invitations">
            {s.pendingInvitations.map((inv) => (
              <li key={inv.id} className="row-between">
                <span>
                  {inv.email}{' '}
                  <span className="muted small">
                    {t('account:settings.sent_at', { date: date(inv.lastSentAt.slice(0, 10)) })}
                  </span>
                </span>
                {s.isAdmin && (
                  <button
                    type="button"
                    className="button secondary"
                    onClick={() => act(() => resendInvitation(inv.id), t('account:settings.resent'))}
                  >
                    {t('account:settings.resend')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {s.isAdmin && (
          <InviteForm
            onInvite={(email) =>
              act(() => inviteToTenancy(tenancyId, email), t('account:settings.invited', { email }))
            }
          />
        )}
      </Card>
    </div>
  );
}

type Member = TenancySettings['members'][number];

/** The app's confirmation (not the browser's confirm()) before removing a user or dropping your own admin flag. */
function ConfirmMember({
  kind,
  email,
  onConfirm,
  onCancel,
}: {
  kind: 'remove' | 'unadmin_self';
  email: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('account');
  const remove = kind === 'remove';
  return (
    <Modal
      open
      onClose={onCancel}
      title={remove ? t('settings.remove_title') : t('settings.remove_admin_self_title')}
      closeLabel={t('modal.close')}
      variant="panel"
    >
      <p>{remove ? t('settings.remove_confirm', { email }) : t('settings.remove_admin_self_confirm')}</p>
      <div className="modal-actions">
        <button type="button" className="button danger" onClick={onConfirm}>
          {remove ? t('settings.remove') : t('settings.remove_admin')}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {t('profile.cancel')}
        </button>
      </div>
    </Modal>
  );
}

function InviteForm({ onInvite }: { onInvite: (email: string) => Promise<void> }) {
  const { t } = useTranslation(['account', 'domain']);
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<ReturnType<typeof validateEmail>>(null);
  return (
    <form
      noValidate
      className="login-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const problem = validateEmail(email);
        setError(problem);
        if (problem) return;
        await onInvite(normalizeEmail(email));
        setEmail('');
      }}
    >
      <h3>{t('account:settings.invite_title')}</h3>
      <div className="field">
        <label htmlFor={id}>{t('account:settings.invite_email')}</label>
        <input
          id={id}
          type="email"
          autoComplete="off"
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
        {error && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {t(`domain:validation.${error}`)}
          </p>
        )}
      </div>
      <button type="submit" className="button primary">
        {t('account:settings.invite')}
      </button>
    </form>
  );
}
