/** What the e2e tests share: the demo logins, logging in, axe, and where the local mail and OpenID servers listen. */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo#Tenant2026';
/** A tenancy's dashboard; the first group is the tenancy id. */
export const DASHBOARD = /\/t\/([^/]+)\/$/;

/**
 * Where the app sends mail and where Google and Apple point (playwright.config.ts chooses the ports, the tests
 * that need them listen there); empty against an app given as E2E_BASE_URL.
 */
export const smtpUrl = process.env.E2E_BASE_URL ? '' : (process.env.E2E_SMTP_URL ?? '');
export const oidcUrl = process.env.E2E_BASE_URL ? '' : (process.env.E2E_OIDC_URL ?? '');

/**
 * A page in a context of its own, with the config's options (`baseURL`, viewport, trace). Not browser.newPage():
 * the context that makes belongs to its page and cannot open others, which axe and the budget tests need.
 */
export async function newPage(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  return (await browser.newContext(options)).newPage();
}

/** Serious and critical axe violations on the page, as readable lines. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fills and submits /login/email with the given credentials. */
export async function logIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login/email');
  // The form works only once its script has run; it marks the form ready then.
  await expect(page.locator('form[data-ready]')).toBeAttached();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Logs in and waits for the dashboard; returns the tenancy id in its URL. A login opens the app in the account's
 * saved language (the demo's admin is Danish, its multi-tenancy user Norwegian); the tests read English, so the
 * dashboard is switched back to English through the header, as a user would, which saves it to the account.
 */
export async function logInToDashboard(page: Page, email: string, password = PASSWORD): Promise<string> {
  await logIn(page, email, password);
  await page.waitForURL(DASHBOARD, { timeout: 30_000 });
  if ((await page.locator('html').getAttribute('lang')) !== 'en') {
    await expect(page.locator('.app-header .language-picker .choice-button')).toBeVisible({
      timeout: 30_000,
    });
    await chooseHeaderLanguage(page, 'en');
  }
  return tenancyInUrl(page);
}

/** The tenancy id of the dashboard the page is on (waits for a dashboard URL). */
export async function dashboardTenancy(page: Page): Promise<string> {
  await expect(page).toHaveURL(DASHBOARD);
  return tenancyInUrl(page);
}

function tenancyInUrl(page: Page): string {
  return decodeURIComponent(DASHBOARD.exec(new URL(page.url()).pathname)?.[1] ?? '');
}

/** Chooses a language in the app header's picker (a button and its list; arrow keys alone switch nothing). */
export async function chooseHeaderLanguage(page: Page, lang: 'en' | 'da' | 'nb'): Promise<void> {
  await page.locator('.app-header .language-picker .choice-button').click();
  await page.locator(`.app-header .language-picker .choice-option[lang="${lang}"]`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}
