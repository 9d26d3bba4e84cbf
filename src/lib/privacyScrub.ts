/**
 * Removes personal data from an error-reporting event before it leaves the process (SPEC §9, issue 10):
 * no user, no cookies or auth headers, no query strings, and emails, tokens and codes masked in text.
 */

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
// JWTs, long opaque tokens and report codes; long letter/digit runs are never useful in an error message.
const TOKEN = /\b(?:eyJ[\w-]+\.[\w-]+\.[\w-]+|[A-Za-z0-9_-]{24,})\b/g;
const REPORT_PATH = /\/report\/[^/?#\s]+/g;

/** Masks emails, tokens and report codes in a string. */
export function scrubText(text: string): string {
  return text.replace(EMAIL, '[email]').replace(REPORT_PATH, '/report/[code]').replace(TOKEN, '[token]');
}

function scrubUrl(url: string): string {
  return scrubText(url.split(/[?#]/)[0] ?? '');
}

type Loose = Record<string, unknown>;

/** A copy of the event without personal data; the shape is Sentry's, typed loosely so lib stays SDK-free. */
export function scrubEvent<T extends object>(event: T): T {
  const out: Loose = { ...(event as Loose) };
  delete out.user;
  if (typeof out.message === 'string') out.message = scrubText(out.message);
  const request = out.request as Loose | undefined;
  if (request) {
    const { cookies: _c, data: _d, query_string: _q, headers, ...rest } = request;
    const safeHeaders: Loose = {};
    for (const [name, value] of Object.entries((headers as Loose | undefined) ?? {})) {
      if (!/^(authorization|cookie|set-cookie|x-forwarded-for|x-real-ip)$/i.test(name))
        safeHeaders[name] = value;
    }
    out.request = {
      ...rest,
      ...(typeof rest.url === 'string' ? { url: scrubUrl(rest.url) } : {}),
      headers: safeHeaders,
    };
  }
  const exception = out.exception as { values?: Loose[] } | undefined;
  if (exception?.values) {
    out.exception = {
      ...exception,
      values: exception.values.map((v) =>
        typeof v.value === 'string' ? { ...v, value: scrubText(v.value) } : v,
      ),
    };
  }
  const breadcrumbs = out.breadcrumbs as Loose[] | undefined;
  if (Array.isArray(breadcrumbs)) {
    out.breadcrumbs = breadcrumbs.map((b) => {
      const copy: Loose = { ...b };
      if (typeof copy.message === 'string') copy.message = scrubText(copy.message);
      const data = copy.data as Loose | undefined;
      if (data) {
        copy.data = Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? scrubUrl(v) : v]),
        );
      }
      return copy;
    });
  }
  return out as T;
}

/** SPEC §9 sample rates: 0.5 of sessions replayed, every session with an error. */
export const SENTRY_SAMPLE_RATES = { replaysSessionSampleRate: 0.5, replaysOnErrorSampleRate: 1 } as const;
