/**
 * The accounts e2e group's helpers (accounts.e2e.test.ts): its `test` with the `visitor` fixture, the addresses
 * of the people it signs up, screenshots, signing up, and a tenancy admin's invitation.
 */

import { test as base, expect, type Page } from '@playwright/test';
import type { TestSmtp } from '../api/helpers/smtp.ts';
import { DASHBOARD, logInToDashboard } from './helpers.ts';

/** Where screenshots of the new buttons and modals go, when set. */
const shots = process.env.E2E_SCREENSHOTS ?? '';
const NEW_PASSWORD = 'Fjord-Lantern-42';
/**
 * The page's form is React's: Astro drops an island's `ssr` attribute when it starts hydrating, before React has
 * committed, and text typed into the server's input in between was lost (CI run 9: the forgot-password test's
 * email field read empty at the click). Forms that know (useHydrated) say `data-hydrating` until then.
 */
export const hydrated = (page: Page) =>
  expect(page.locator('astro-island:not([ssr]) form:not([data-hydrating])')).toBeVisible();

/**
 * The address of one of the group's new people. A retry of the serial group runs every test again, and the people
 * the first try signed up exist by then, so each retry (and each --repeat-each run) has addresses of its own.
 */
export function person(name: string): string {
  const { retry, repeatEachIndex } = test.info();
  return retry === 0 && repeatEachIndex === 0
    ? `${name}@demo.test`
    : `${name}.${repeatEachIndex}.${retry}@demo.test`;
}

/** Whether this is the group's first run on this server (the demo's published code is still unused). */
export const firstRun = () => test.info().retry === 0 && test.info().repeatEachIndex === 0;

/** `visitor()`: a page in a fresh context (empty storage), as another person on another device. */
export const test = base.extend<{ visitor: () => Promise<Page> }>({
  visitor: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});

/** Screenshots at 390 and 1400 px, when E2E_SCREENSHOTS names a folder. */
export async function snap(page: Page, name: string) {
  if (!shots) return;
  for (const width of [390, 1400]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${shots}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Signs up on /signup/email → set-password; the pending code is used by the form. */
export async function signUp(page: Page, email: string) {
  await page.getByRole('link', { name: 'Sign up with email' }).click();
  await expect(page).toHaveURL('/signup/email');
  await hydrated(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Email').press('Enter');
  await expect(page).toHaveURL('/signup/set-password');
  await hydrated(page);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat password').fill(NEW_PASSWORD);
  // Enter, as many people submit: just after a soft navigation the page's scroll still jumps (0 and 112 px, seen
  // at 1400 × 900 on the CI machine), and a click aimed before a jump lands on <main> and is lost.
  await page.getByLabel('Repeat password').press('Enter');
  await expect(page).toHaveURL('/signup/account-created', { timeout: 30_000 });
  // Enter on the focused button, for the same reason (a soft navigation just happened).
  const go = page.getByRole('button', { name: 'Go to your consumption' });
  await expect(go).toBeEnabled();
  await go.press('Enter');
  await page.waitForURL(DASHBOARD, { timeout: 30_000 });
}

/**
 * The demo's tenancy admin invites `email` on the settings page; returns the dashboard and the signup link mailed
 * through `smtp` (the test SMTP server).
 */
export async function inviteAsAdmin(
  page: Page,
  smtp: TestSmtp,
  email: string,
): Promise<{ dashboard: string; link: URL }> {
  await logInToDashboard(page, 'admin@demo.test');
  const dashboard = new URL(page.url()).pathname;
  await page.goto(`${dashboard}settings`);
  const invite = page.getByLabel('Email', { exact: true });
  await invite.fill(email, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
  const link = new URL(/https?:\/\/\S+\/signup\?activationCode=[A-Z]{12}/.exec(mail.text)![0]);
  return { dashboard, link };
}
