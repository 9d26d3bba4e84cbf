/** /admin: the properties the operator may see. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminRequest } from '../../client/admin/session.ts';
import { AdminPropertiesDocument } from '../../client/gql/admin.ts';
import type { Language } from '../../lib/languages.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useOperator } from './useOperator.ts';

/** The island. */
export default function Portfolio({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Properties />
    </Providers>
  );
}

function Properties() {
  const { t } = useTranslation('admin');
  const operator = useOperator();
  const query = useQuery({
    queryKey: ['admin', 'properties'],
    queryFn: () => adminRequest(AdminPropertiesDocument, {}),
    enabled: operator !== null,
  });
  if (query.isError)
    return (
      <p className="alert error" role="alert">
        {t([`errors.${query.error.message}`, 'errors.UNKNOWN'])}
      </p>
    );
  if (!query.data) return <Spinner label={t('loading')} />;
  return (
    <div className="card admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{t('home.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('portfolio.number')}</th>
            <th scope="col">{t('portfolio.name')}</th>
            <th scope="col">{t('portfolio.address')}</th>
          </tr>
        </thead>
        <tbody>
          {query.data.properties.map((p) => (
            <tr key={p.id}>
              <td>{p.number}</td>
              <td>{p.name}</td>
              <td>
                {p.address}, {p.zipcode} {p.city}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
