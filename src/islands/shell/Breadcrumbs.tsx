/** The header's breadcrumbs (SPEC §2). */
import { useTranslation } from 'react-i18next';

/** A breadcrumb, translated by the layout (AppLayout.astro); the key identifies it. */
export type Crumb = { key: string; href?: string; label: string };

/** The page's trail (SPEC §2); the last crumb is the current page, the others link. */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const { t } = useTranslation('common');
  return (
    <nav aria-label={t('header.breadcrumbs')} className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={crumb.key}>
            {crumb.href && i < crumbs.length - 1 ? (
              <a href={crumb.href}>{crumb.label}</a>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
