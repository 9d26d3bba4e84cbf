/**
 * The console's tenancy, invitation, data-quality and API-key pages (issue 21), by a demo organisation admin:
 * create an API key and send a suspect reading with it, reject the data issue it raised, revoke the key; move a
 * tenant out and a new one in; bulk-invite with one bad address and read the report. Screenshots at 1400 and
 * 390 px; axe on each page in en, da and nb.
 */
import { expect, type Page, test } from '@playwright/test';
import { startTestSmtp, type TestSmtp } from '../api/helpers/smtp.ts';
import { logInAsOrgAdmin } from './admin-helpers.ts';
import { newPage, seriousA11yViolations, smtpUrl } from './helpers.ts';

const PAGES = ['/admin/tenancies', '/admin/invitations', '/admin/data-quality', '/admin/api-keys'];

test.describe
  .serial('operator flows', () => {
    let page: Page;
    let smtp: TestSmtp | null = null;
    let key = '';

    test.beforeAll(async ({ browser }) => {
      if (smtpUrl) smtp = await startTestSmtp(Number(new URL(smtpUrl).port));
      page = await newPage(browser);
      await logInAsOrgAdmin(page);
    });
    test.afterAll(async () => {
      await page?.context().close();
      await smtp?.close();
    });

    const shoot = async (name: string) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.screenshot({ path: `test-results/admin-ops-${name}-1400.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `test-results/admin-ops-${name}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1400, height: 900 });
    };

    test('creates an API key, shown once, and a reading sent with it raises a data issue', async ({
      request,
    }) => {
      await page.goto('/admin/api-keys');
      await page.getByLabel('Name').fill('e2e integrator');
      await page.getByRole('checkbox').first().check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByTestId('new-key').locator('code');
      await expect(shown).toHaveText(/^tk_[0-9a-f]{8}_/);
      key = (await shown.textContent())!;
      await expect(page.getByTestId('key-e2e integrator')).toBeVisible();
      await shoot('api-keys');
      // A cold-water register that fell to almost nothing since its last reading: quarantined (the next hourly reading then rises too far).
      // Inside the meter's installation in the e2e demo (35 to 21 days ago), between two hourly readings.
      const at = new Date(Date.now() - 28 * 86_400_000);
      at.setUTCMinutes(30, 0, 0);
      const sent = await request.post('/api/ingest/v1/readings', {
        headers: { authorization: `Bearer ${key}` },
        data: [{ meter: 'CW-1001-002', timestamp: at.toISOString(), value: 0.001 }],
      });
      expect(sent.status()).toBe(200);
      const receipt = await sent.json();
      expect(receipt.totals.quarantined, JSON.stringify(receipt.results)).toBe(1);
    });

    test('rejects the data issue', async () => {
      await page.goto('/admin/data-quality');
      const row = page.getByTestId('issue-CW-1001-002').filter({ hasText: '0.001' });
      await expect(row).toBeVisible();
      // 0.001 passes as a reset near zero; what was refused is the rise from it to the next hourly reading.
      await expect(row).toContainText(
        /Rises from 0\.001 m³ \(.+\) to [\d,.]+ m³ \(.+\): more than the plausible/,
      );
      await expect(row).toContainText('Reading before:');
      await shoot('data-quality');
      await row.getByRole('button', { name: 'Reject' }).click();
      await expect(row.getByRole('status')).toContainText('Rejected.');
      await page.reload();
      await expect(page.getByTestId('issue-CW-1001-002').filter({ hasText: '0.001' })).toHaveCount(0);
    });

    test('revokes the key: it is refused from then on', async ({ request }) => {
      await page.goto('/admin/api-keys');
      // What the key sent shows on its row: the one reading, held back as suspect.
      await expect(page.getByTestId('key-e2e integrator')).toContainText('1 row · 1 batch');
      await expect(page.getByTestId('key-e2e integrator')).toContainText('0 taken · 1 held back as suspect');
      await page.getByRole('button', { name: 'Revoke e2e integrator' }).click();
      // Nothing is revoked until the operator confirms.
      await expect(page.getByTestId('key-confirm-e2e integrator')).toContainText(
        'Every system that sends with it is refused',
      );
      await expect(page.getByTestId('key-e2e integrator')).not.toContainText('Revoked');
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await expect(page.getByTestId('key-e2e integrator')).toContainText('Revoked');
      const refused = await request.post('/api/ingest/v1/readings', {
        headers: { authorization: `Bearer ${key}` },
        data: [{ meter: 'CW-1001-002', timestamp: new Date().toISOString(), value: 1 }],
      });
      expect(refused.status()).toBe(401);
    });

    test('moves a tenant out and the next one in', async () => {
      await page.goto('/admin/tenancies');
      const table = page.getByTestId('tenancies-table');
      await expect(table).toBeVisible();
      // Far ahead, so the demo's tenants keep their flats for the other tests.
      await page.getByRole('button', { name: 'Move out' }).last().click();
      await page.getByLabel('Last day').fill('2099-12-31');
      await page.getByRole('button', { name: 'Save move-out' }).click();
      await expect(page.getByRole('status')).toContainText('The last day is 2099-12-31.');
      await expect(page.getByLabel('First day')).toHaveValue('2100-01-01');
      await page.getByLabel('Tenancy reference').fill('T-E2E-NEXT');
      await page.getByLabel('Tenant’s name').fill('Nora Next');
      await page.getByRole('button', { name: 'Save move-in' }).click();
      await expect(page.getByTestId('move-done')).toContainText('Saved.');
      await expect(table.getByRole('cell', { name: 'T-E2E-NEXT' })).toBeVisible();
      await expect(table.getByText(/– 2099-12-31/)).toBeVisible();
      await shoot('tenancies');
    });

    test('bulk-invites with one bad address and reads the report', async () => {
      await page.goto('/admin/invitations');
      await page
        .getByLabel('Or paste the lines')
        .fill('tenancy,email\nT-E2E-NEXT,nora.next@example.com\nT-E2E-NEXT,not-an-address\n');
      await page.getByRole('button', { name: 'Send invitations' }).click();
      const report = page.getByTestId('invitation-report').first();
      await expect(report.getByTestId('invitation-3')).toContainText('Failed');
      await expect(report.getByTestId('invitation-3')).toContainText('not a valid email address');
      // With the test mail server running (not against an app started elsewhere), the good address is sent.
      if (smtp) await expect(report.getByTestId('invitation-2')).toContainText('Sent');
      // At 390 px the report's table scrolls sideways: its scroller takes the keyboard's focus.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousA11yViolations(page), '390 px').toEqual([]);
      await shoot('invitations');
    });

    for (const lang of ['en', 'da', 'nb']) {
      test(`passes axe on each page in ${lang}`, async ({ baseURL }) => {
        test.setTimeout(300_000);
        await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
        await page.evaluate((l) => localStorage.setItem('language', l), lang);
        for (const path of PAGES) {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.locator('.admin-main .card').first()).toBeVisible();
          expect(await seriousA11yViolations(page), `${lang} ${path}`).toEqual([]);
        }
        if (lang !== 'en')
          await page.screenshot({ path: `test-results/admin-ops-invitations-${lang}-1400.png` });
      });
    }
  });
