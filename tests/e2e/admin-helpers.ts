/** What the console's e2e tests share: the demo operators' second factor and a login through /admin/login. */
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PASSWORD } from './helpers.ts';

/** The demo operators' published TOTP key (src/server/admin/demo.ts). */
const DEMO_TOTP_SECRET = 'DEMOTOTPDEMOTOTPDEMOTOTPDEMOTOTP';
export const ORG_ADMIN = 'operator@demo.test';
export const MANAGER = 'manager@demo.test';

const lastStep = new Map<string, number>();

/**
 * A TOTP code for the key that the backend has not taken yet: each time step's code works once per operator,
 * so a second login within the same 30 s waits for the next step.
 */
export async function freshTotp(email: string, secret = DEMO_TOTP_SECRET): Promise<string> {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  let step = totp.counter();
  const last = lastStep.get(email);
  if (last !== undefined && step <= last) {
    await new Promise((r) => setTimeout(r, totp.remaining() + 200));
    step = totp.counter();
  }
  lastStep.set(email, step);
  return totp.generate();
}

/** Logs in at /admin/login with the password and a TOTP code, and waits for the console. */
export async function logInToConsole(
  page: Page,
  email = ORG_ADMIN,
  secret = DEMO_TOTP_SECRET,
): Promise<void> {
  await page.goto('/admin/login');
  await fillPassword(page, email);
  for (let attempt = 0; ; attempt++) {
    await page.getByLabel('Code', { exact: true }).fill(await freshTotp(email, secret));
    await page.getByLabel('Code', { exact: true }).press('Enter');
    // Another test may have used this step's code for the same operator: the next step's code works.
    const outcome = await Promise.race([
      page.waitForURL(/\/admin\/?$/).then(() => 'in' as const),
      page
        .getByRole('alert')
        .waitFor()
        .then(() => 'refused' as const),
    ]);
    if (outcome === 'in' || attempt === 2) break;
    lastStep.set(email, new TOTP({ secret: Secret.fromBase32(secret) }).counter());
  }
  await expect(page).toHaveURL(/\/admin\/?$/);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
}

/** The password step of /admin/login, up to the second factor's field. */
export async function fillPassword(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // Enter, not a click on Continue: just after a (soft) navigation the page's scroll position still jumps
  // (112 px and back, seen at 1280 × 720), and a click aimed before the jump lands on <main> and is lost.
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
}

/** A call to the console's backend, failing the test on any GraphQL error. */
export async function adminApi<T>(
  request: APIRequestContext,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const response = await request.post('/api/admin/graphql', {
    data: { query, variables },
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  expect(body.errors ?? []).toEqual([]);
  return body.data as T;
}

/** An access token of a demo operator, through the backend's login and second factor. */
export async function operatorToken(request: APIRequestContext, email = ORG_ADMIN): Promise<string> {
  const { operatorLogin } = await adminApi<{ operatorLogin: { challenge: string } }>(
    request,
    'mutation($e: String!, $p: String!) { operatorLogin(email: $e, password: $p) { challenge } }',
    { e: email, p: PASSWORD },
  );
  const { operatorSecondFactor } = await adminApi<{ operatorSecondFactor: { token: string } }>(
    request,
    'mutation($c: String!, $code: String!) { operatorSecondFactor(challenge: $c, code: $code) { token } }',
    { c: operatorLogin.challenge, code: await freshTotp(email) },
  );
  return operatorSecondFactor.token;
}

/**
 * Fresh activation codes for running tenancies, each for another tenancy, issued by the demo's organisation admin
 * (inviteTenant without an address: a code for a letter). Tenancies without members come first, then the last
 * apartments' (a code is refused only to a user already on its tenancy, so co-tenants join this way too). For tests
 * that sign up or add a tenancy, and for their retries, which cannot use a spent code again.
 */
export async function freshActivationCodes(browser: Browser, count: number): Promise<string[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await logInToConsole(page);
    const token = await page.evaluate(() => localStorage.getItem('adminToken'));
    expect(token).toBeTruthy();
    const { properties } = await adminApi<{ properties: { id: string }[] }>(
      page.request,
      '{ properties { id } }',
      {},
      token!,
    );
    const running: { id: string; members: number }[] = [];
    for (const property of properties) {
      const { tenancyApartments } = await adminApi<{
        tenancyApartments: { tenancies: { id: string; end: string | null; members: unknown[] }[] }[];
      }>(
        page.request,
        'query ($p: ID!) { tenancyApartments(propertyId: $p) { tenancies { id end members { userId } } } }',
        { p: property.id },
        token!,
      );
      for (const apartment of tenancyApartments)
        for (const tenancy of apartment.tenancies)
          if (tenancy.end === null) running.push({ id: tenancy.id, members: tenancy.members.length });
    }
    const chosen = running
      .reverse()
      .sort((a, b) => Number(a.members > 0) - Number(b.members > 0))
      .slice(0, count)
      .map((t) => t.id);
    expect(chosen).toHaveLength(count);
    const codes: string[] = [];
    for (const tenancyId of chosen) {
      const { inviteTenant } = await adminApi<{ inviteTenant: { activationCode: string } }>(
        page.request,
        'mutation ($t: ID!) { inviteTenant(tenancyId: $t) { activationCode } }',
        { t: tenancyId },
        token!,
      );
      codes.push(inviteTenant.activationCode);
    }
    return codes;
  } finally {
    await context.close();
  }
}
