// report.html and a trajectory page, as written by `hopbench report` from the hand-made
// results in tests/fixtures/report/run, opened in headless Chromium from disk: no
// console error, nothing fetched from the network, the tables, the chart and the
// links work. A screenshot is kept in the test's temp folder for a person to look at.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchPlain } from '../../runner/browser.mjs';
import { hopbenchBin } from './native.mjs';
import { chromiumPath, repoRoot } from './paths.mjs';

describe('report pages in Chromium', { timeout: 120_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {Awaited<ReturnType<typeof launchPlain>>} */ let browser;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string[]} */ const problems = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-report-page-'));
    const out = spawnSync(hopbenchBin(), ['report', join(repoRoot, 'tests/fixtures/report/run'), '--out', dir], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    browser = await launchPlain({ chromiumPath });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e}`));
    page.on('request', (r) => !r.url().startsWith('file:') && problems.push(`request: ${r.url()}`));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    // HOPBENCH_KEEP_TEMP=1 keeps the folder and its screenshots for a person to look at.
    if (!process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('report.html shows the bucket and position tables, the chart and a row per task', async (t) => {
    const screenshot = join(dir, 'report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    t.diagnostic(`screenshot: ${screenshot}`);
    /** @param {string} selector */
    const cells = (selector) =>
      page.$$eval(selector, (rows) =>
        rows.map((r) => [.../** @type {HTMLTableRowElement} */ (r).cells].map((c) => /** @type {string} */ (c.textContent).trim())));
    assert.deepEqual(await cells('#buckets tbody tr'), [
      ['1 hop', '2', '1 / 2', '50.00', '50.00'],
      ['2-4 hops', '3', '4 / 8', '50.00', '33.33'],
      ['5+ hops', '1', '4 / 5', '80.00', '0.00'],
      ['overall', '6', '9 / 15', '60.00', '33.33'],
    ]);
    assert.deepEqual(await cells('#positions tbody tr'), [
      ['1 hop (2 tasks)', '50.00', '', '', '', ''],
      ['2 hops (1 task)', '0.00', '0.00', '', '', ''],
      ['3 hops (2 tasks)', '100.00', '50.00', '50.00', '', ''],
      ['5 hops (1 task)', '100.00', '100.00', '100.00', '100.00', '0.00'],
    ]);
    const chart = await page.$eval('#position-chart', (svg) => {
      const box = svg.getBoundingClientRect();
      return { width: box.width, height: box.height, series: svg.querySelectorAll('g.series').length, points: svg.querySelectorAll('circle').length };
    });
    assert.deepEqual(chart, { width: 720, height: 320, series: 4, points: 11 });
    const rows = await cells('#tasks tbody tr');
    assert.deepEqual(rows.map((r) => [r[0].split(' ')[0], r[1], r[2]]), [
      ['suite/t1', '1/1', 'PASS'], ['suite/t2', '0/1', 'FAIL'], ['suite/t3', '3/3', 'PASS'],
      ['suite/t4', '1/3', 'FAIL'], ['suite/t5', '0/2', 'ERROR'], ['suite/t6', '4/5', 'FAIL'],
    ]);
    // Escaped markup shows as text; no element was injected.
    assert.match(rows[4][7], /<script>alert\(1\)<\/script>/);
    assert.equal(await page.$$eval('script', (s) => s.length), 0);
    assert.deepEqual(problems, []);
  });

  test('a task links to its trajectory page, whose screenshots load from beside it', async () => {
    await page.click('a[href="trajectories/suite~2Ft3.html"]');
    await page.waitForLoadState('load');
    assert.match(page.url(), /trajectories\/suite~2Ft3\.html$/);
    await page.screenshot({ path: join(dir, 'trajectory.png'), fullPage: true });
    const images = await page.$$eval('img', (imgs) => imgs.map((i) => [i.getAttribute('src'), i.complete && i.naturalWidth > 0]));
    assert.deepEqual(images, [['suite~2Ft3-m1.png', true], ['suite~2Ft3-m2.png', true], ['suite~2Ft3-m3.png', true]]);
    assert.equal(await page.$$eval('section.step', (s) => s.length), 3);
    // The observation is collapsed until opened.
    const observation = page.locator('#step-1 details.observation');
    assert.equal(await observation.locator('pre').isVisible(), false);
    await observation.locator('summary').click();
   assert.match(String(await observation.locator('pre').textContent()), /\[2\] StaticText '<script>alert\(1\)<\/script>'/);
    assert.deepEqual(problems, []);
  });
});
