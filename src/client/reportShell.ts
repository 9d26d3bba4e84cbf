/**
 * The report shell's script: reads the code from the URL's fragment, fetches the report's content in the shell's
 * language and puts it in place (with the page title it names); the language links keep the fragment. Without a
 * code, or when the content cannot be fetched, SPEC §8's message stays.
 */
export async function showReport(root: HTMLElement): Promise<void> {
  const code = decodeURIComponent(window.location.hash.slice(1));
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.public-languages a')) link.hash = code;
  const done = () => root.removeAttribute('aria-busy');
  const noCode = () => {
    root.querySelector('[role="status"]')?.remove();
    root.querySelector<HTMLElement>('[data-testid="report-no-code"]')?.removeAttribute('hidden');
    done();
  };
  if (!code) return noCode();
  let html: string;
  try {
    const response = await fetch(
      `/report/${encodeURIComponent(code)}/content?lang=${encodeURIComponent(root.dataset.lang ?? '')}`,
      { cache: 'no-store', referrerPolicy: 'no-referrer' },
    );
    html = await response.text();
  } catch {
    return noCode();
  }
  // The content is the server's own markup for this code (Astro escapes every value in it).
  root.innerHTML = html;
  const title = root.querySelector<HTMLElement>('[data-title]')?.dataset.title;
  if (title) document.title = document.title.replace(/^[^·]*·/, `${title} ·`);
  done();
}
