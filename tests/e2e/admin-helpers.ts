/** What the console's e2e tests share: the demo operators' second factor and a login through /admin/login. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PASSWORD } from './helpers.ts';

/** The demo operators' published TOTP key (src/server/admin/demo.ts). */
const DEMO_TOTP_SECRET = 'DEMOTOTPDEMOTOTPDEMOTOTPDEMOTOTP';
export const ORG_ADMIN = 'operator@demo.test';
export const MANAGER = 'manager@demo.test';

/**
 * The last TOTP step taken per operator in this run, kept in a file as well as in memory: Playwright starts a new
 * worker process after a failed test, and a worker that forgot the steps taken sent an already used code, so one
 * failure made the next console file fail its login too. The output folder is emptied at the start of each run.
 */
const STEPS_FILE = join('test-results', '.totp-last-steps.json');
const lastStep = {
  read(): Record<string, number> {
    try {
      return JSON.parse(readFileSync(STEPS_FILE, 'utf8')) as Record<string, number>;
    } catch {
      return {};
    }
  },
  get(email: string): number | undefined {
    return this.read()[email];
  },
  set(email: string, step: number): void {
    mkdirSync(dirname(STEPS_FILE), { recursive: true });
    writeFileSync(STEPS_FILE, JSON.stringify({ ...this.read(), [email]: step }));
  },
};
/** Access tokens from operatorToken and readyOrgAdmin, by operator, with when they were issued. */
const tokens = new Map<string, { token: string; at: number }>();
/** How long a token is used again: access tokens last 5 minutes (ACCESS_TOKEN_TTL). */
const TOKEN_REUSE_MS = 4 * 60_000;

/**
 * A TOTP code for the key that the backend has not taken yet. The backend takes each time step's code once per
 * operator, and only a step later than the last one taken; it accepts the steps just before and just after the
 * current one (src/server/admin/secondFactor.ts, window 1). So a run can log in up to three times at once (the
 * previous step while it still has more than 5 s to go, the current one, the next one) before it waits for the
 * next step. Waiting a whole 30 s step at each second login cost the e2e suite a minute or more.
 */
export async function freshTotp(email: string, secret = DEMO_TOTP_SECRET): Promise<string> {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  for (;;) {
    const step = readyStep(totp, email);
    if (step !== null) {
      lastStep.set(email, step);
      return totp.generate({ timestamp: step * totp.period * 1000 });
    }
    await new Promise((r) => setTimeout(r, totp.remaining() + 200));
  }
}

/** The step whose code freshTotp would send now for this operator, or null when it must wait for the next. */
function readyStep(totp: TOTP, email: string): number | null {
  const current = totp.counter();
  const earliest = totp.remaining() > 5_000 ? current - 1 : current;
  const step = Math.max(earliest, (lastStep.get(email) ?? Number.NEGATIVE_INFINITY) + 1);
  return step <= current + 1 ? step : null;
}

/** Whether freshTotp would answer at once for this operator (no wait for the next time step). */
function codeReady(email: string, secret = DEMO_TOTP_SECRET): boolean {
  return readyStep(new TOTP({ secret: Secret.fromBase32(secret) }), email) !== null;
}

/**
 * Logs in through the backend's API (password, then the second factor) and keeps the token in `tokens`. The
 * secret is the operator's, or, at a first login, the one the backend has just made (the setup).
 */
async function apiLogin(
  request: APIRequestContext,
  email: string,
  password: string,
  secret?: string,
): Promise<{ token: string; secret: string }> {
  const { operatorLogin } = await adminApi<{ operatorLogin: { challenge: string; secret: string | null } }>(
    request,
    'mutation($e: String!, $p: String!) { operatorLogin(email: $e, password: $p) { challenge secret } }',
    { e: email, p: password },
  );
  const key = secret ?? operatorLogin.secret!;
  const at = Date.now();
  const { operatorSecondFactor } = await adminApi<{ operatorSecondFactor: { token: string } }>(
    request,
    'mutation($c: String!, $code: String!) { operatorSecondFactor(challenge: $c, code: $code) { token } }',
    { c: operatorLogin.challenge, code: await freshTotp(email, key) },
  );
  tokens.set(email, { token: operatorSecondFactor.token, at });
  return { token: operatorSecondFactor.token, secret: key };
}

/** An organisation admin made for this run: the password and second factor it was set up with. */
interface OrgAdmin {
  email: string;
  password: string;
  secret: string;
}
const extraAdmins: OrgAdmin[] = [];

/**
 * An organisation admin who can log in now without waiting for a TOTP step: the demo's when its next code is
 * ready, else one made for this run (createOperator, then the first login's second-factor setup, through the
 * API), which has codes of its own. For tests that need an organisation admin but not the demo's in particular:
 * a console test that logs in at each step otherwise waits up to 30 s for the demo operator's next code.
 */
async function readyOrgAdmin(request: APIRequestContext): Promise<OrgAdmin> {
  if (codeReady(ORG_ADMIN)) return { email: ORG_ADMIN, password: PASSWORD, secret: DEMO_TOTP_SECRET };
  const ready = extraAdmins.find((a) => codeReady(a.email, a.secret));
  if (ready) return ready;
  // Any organisation admin's token of the last 4 minutes makes the new one; else the demo admin's (which may wait).
  const fresh = [...tokens.values()].find((t) => Date.now() - t.at < TOKEN_REUSE_MS);
  const token = fresh?.token ?? (await operatorToken(request));
  const email = `e2e-admin-${extraAdmins.length + 1}-${Date.now()}@operators.test`;
  const { createOperator } = await adminApi<{ createOperator: { initialPassword: string } }>(
    request,
    'mutation($input: CreateOperatorInput!) { createOperator(input: $input) { initialPassword } }',
    { input: { email, name: 'E2E admin', role: 'ORG_ADMIN' } },
    token,
  );
  const password = createOperator.initialPassword;
  const { secret } = await apiLogin(request, email, password);
  const admin = { email, password, secret };
  extraAdmins.push(admin);
  return admin;
}

/**
 * Logs in at /admin/login as an organisation admin who can do so without waiting (readyOrgAdmin), and waits for
 * the console. Returns the operator's email, which the audit log names as the actor.
 */
export async function logInAsOrgAdmin(page: Page): Promise<string> {
  const admin = await readyOrgAdmin(page.request);
  await logInToConsole(page, admin.email, admin.secret, admin.password);
  return admin.email;
}

/** Logs in at /admin/login with the password and a TOTP code, and waits for the console. */
export async function logInToConsole(
  page: Page,
  email = ORG_ADMIN,
  secret = DEMO_TOTP_SECRET,
  password = PASSWORD,
): Promise<void> {
  await page.goto('/admin/login');
  await fillPassword(page, email, password);
  for (let attempt = 0; ; attempt++) {
    // The answer to this submit, not the alert on the page: after a refusal the alert stays until the next answer.
    const answer = page.waitForResponse(
      (r) =>
        r.url().includes('/api/admin/graphql') &&
        (r.request().postData() ?? '').includes('operatorSecondFactor'),
    );
    await page.getByLabel('Code', { exact: true }).fill(await freshTotp(email, secret));
    await page.getByLabel('Code', { exact: true }).press('Enter');
    const body = (await (await answer).json()) as {
      data?: { operatorSecondFactor?: { token?: string } };
    };
    // Refused: another run took that step's code already (a retry's new worker does not know what the last one
    // took; freshTotp noted the step), so the next try takes a later one: after the three around the current
    // step, freshTotp waits for the next.
    if (body.data?.operatorSecondFactor?.token || attempt === 4) break;
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

/**
 * An access token of a demo operator, through the backend's login and second factor. A token from this run's
 * previous call for the same operator is used again while it has more than a minute left (access tokens last
 * 5 minutes, ACCESS_TOKEN_TTL): a new one would wait for the operator's next TOTP step.
 */
export async function operatorToken(request: APIRequestContext, email = ORG_ADMIN): Promise<string> {
  const cached = tokens.get(email);
  if (cached && Date.now() - cached.at < TOKEN_REUSE_MS) return cached.token;
  return (await apiLogin(request, email, PASSWORD, DEMO_TOTP_SECRET)).token;
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
    await logInAsOrgAdmin(page);
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
        tenancyApartments: {
          tenancies: { id: string; end: string | null; members: unknown[] }[];
        }[];
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
      const { inviteTenant } = await adminApi<{
        inviteTenant: { activationCode: string };
      }>(
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
