/**
 * The three brands end to end in Chromium (split from reports.e2e.test.ts): each built with its PUBLIC_BRAND,
 * started, and checked for its name, logo, colour and store links, with axe on its login page.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_PLACEHOLDER_STORE_LINKS } from '../../src/lib/brands.ts';
import { newPage, seriousA11yViolations } from './helpers.ts';

test.describe
  .serial('the three brands', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const brands = [
      { id: 'varmeblik', name: 'HeatView', colour: 'rgb(194, 65, 12)', stores: true },
      { id: 'nordmaaler', name: 'Nordic Meter', colour: 'rgb(15, 118, 110)', stores: true },
      { id: 'solgaarden', name: 'Solgården Home', colour: 'rgb(67, 56, 202)', stores: false },
    ] as const;
    const shots = process.env.BRAND_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'brand-shots-'));

    for (const brand of brands) {
      test(`builds and themes ${brand.id} from PUBLIC_BRAND`, async ({ browser }) => {
        test.setTimeout(240_000);
        // Inside the project (node_modules/.cache), so the built server resolves its packages.
        const out = join(root, 'node_modules/.cache/brand-builds', brand.id);
        const data = mkdtempSync(join(tmpdir(), `brand-data-${brand.id}-`));
        const build = spawnSync('npx', ['astro', 'build', '--outDir', out], {
          cwd: root,
          // Store links are per brand build: two brands get the demo placeholders, the third none (hidden).
          env: {
            ...process.env,
            NODE_ENV: 'production',
            PUBLIC_BRAND: brand.id,
            PUBLIC_APP_STORE_URL: brand.stores ? DEMO_PLACEHOLDER_STORE_LINKS[brand.id].appStore : '',
            PUBLIC_PLAY_STORE_URL: brand.stores ? DEMO_PLACEHOLDER_STORE_LINKS[brand.id].playStore : '',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        expect(build.status).toBe(0);
        // A free port, so a server left by an earlier run cannot answer in this build's place.
        const port = await new Promise<number>((resolve, reject) => {
          const probe = createServer();
          probe.once('error', reject);
          probe.listen(0, '127.0.0.1', () => {
            const address = probe.address();
            probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
          });
        });
        const server = spawn(join(root, 'node_modules/.bin/node'), [join(out, 'server/entry.mjs')], {
          cwd: root,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            DATA_DIR: data,
          },
          stdio: 'ignore',
        });
        const page = await newPage(browser);
        try {
          // The built server needs a moment to listen.
          await expect(async () => {
            expect((await page.goto(`http://127.0.0.1:${port}/help`))?.ok()).toBe(true);
          }).toPass({ timeout: 30_000 });
          await expect(page.locator('html')).toHaveAttribute('data-brand', brand.id);
          await expect(page.locator('.public-header .brand')).toContainText(brand.name);
          await expect(page.locator('.public-header .brand img')).toHaveAttribute(
            'src',
            `/brand/${brand.id}/logo.svg`,
          );
          const colour = await page.evaluate(
            () => getComputedStyle(document.querySelector('.public-languages a[aria-current]')!).color,
          );
          expect(colour).not.toBe('');
          await expect(page.locator('.cookie-consent .button.primary')).toHaveCSS(
            'background-color',
            brand.colour,
          );
          if (brand.stores) {
            const links = page.locator('.store-links a');
            expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
              DEMO_PLACEHOLDER_STORE_LINKS[brand.id].appStore,
              DEMO_PLACEHOLDER_STORE_LINKS[brand.id].playStore,
            ]);
          } else await expect(page.locator('.store-links')).toHaveCount(0);
          await page.screenshot({ path: join(shots, `${brand.id}-help.png`) });
          await page.goto(`http://127.0.0.1:${port}/login?lang=da`);
          await page.goto(`http://127.0.0.1:${port}/login`);
          await page.screenshot({ path: join(shots, `${brand.id}-login.png`) });
          expect(await seriousA11yViolations(page)).toEqual([]);
        } finally {
          await page.context().close();
          server.kill('SIGTERM');
          rmSync(out, { recursive: true, force: true });
          rmSync(data, { recursive: true, force: true });
        }
      });
    }
  });
