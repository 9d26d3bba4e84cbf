/**
 * The shell's frame before the session is known: the sidebar with the brand, and the header with the page's
 * breadcrumbs, in the boxes the real shell fills. The server renders it (AppLayout's fallback, no JS), and the
 * shell island renders the same until the session is ready, so the page neither hides behind a spinner nor
 * moves when the shell appears. Plain props only: it has no hooks, so Astro can render it without hydrating.
 */
import { brandOf } from '../../lib/brands.ts';
import type { Language } from '../../lib/languages.ts';

type Props = {
  brand: unknown;
  lang: Language;
  /** The breadcrumbs as text, the current page last. */
  crumbs: string[];
  breadcrumbsLabel: string;
  loadingLabel: string;
};

export function ShellPlaceholder({ brand, lang, crumbs, breadcrumbsLabel, loadingLabel }: Props) {
  const { logo, appName } = brandOf(brand);
  return (
    <>
      <div className="sidebar" aria-hidden="true">
        <div className="sidebar-top">
          <span className="brand">
            <img src={logo} alt="" width="32" height="32" />
            <span>{appName[lang]}</span>
          </span>
        </div>
      </div>
      <header className="app-header">
        {/* The place of the menu (or back) button. */}
        <span className="icon-button small-only" aria-hidden="true" />
        <nav aria-label={breadcrumbsLabel} className="breadcrumbs">
          <ol>
            {crumbs.map((label, i) => (
              <li key={label}>
                {i === crumbs.length - 1 ? <span aria-current="page">{label}</span> : label}
              </li>
            ))}
          </ol>
        </nav>
        <p className="visually-hidden" role="status">
          {loadingLabel}
        </p>
      </header>
    </>
  );
}
