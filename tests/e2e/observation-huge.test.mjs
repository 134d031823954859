// A page too big to read whole (docs/observation.md "The bound"): generated pages of
// 50,000 nodes, over the size where the observation reads only the part near the
// viewport. What the model is shown says so, and otherwise shows exactly what it shows
// of a small page with the same top (which is read whole, as before); its ids act on
// the page through the extension.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, sendOk, tabIdOf } from '../../runner/driver.mjs';
import { hugePage } from '../bench/generate-huge-page.mjs';
import { lineWith } from './observe-helpers.mjs';
import { startSession, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

const HUGE_NODES = 50_000;
const SMALL_NODES = 2_000;
const CUT_LINE = /^\[observation cut: the page has about ([\d,]+) elements; only the ([\d,]+) nearest the viewport were read\]$/;

describe('observation of a page too big to read whole', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {string} */ let root;

  /** @param {string} path */
  const tabOf = async (path) => tabIdOf(extPage, (await ext.openPage(sites.url('huge', path))).url());

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'hopbench-huge-'));
    mkdirSync(join(root, 'huge'));
    for (const shape of /** @type {const} */ (['rows', 'flat'])) {
      writeFileSync(join(root, 'huge', `${shape}.html`), hugePage({ nodes: HUGE_NODES, shape }));
      writeFileSync(join(root, 'huge', `${shape}-small.html`), hugePage({ nodes: SMALL_NODES, shape }));
    }
    sites = await startSites({ root, names: ['huge'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const shape of ['rows', 'flat']) {
    test(`${shape}: the text says it was cut and shows the viewport as a small page's`, async () => {
      const huge = await observe(extPage, await tabOf(`/${shape}.html`), { mode: 'text' });
      const small = await observe(extPage, await tabOf(`/${shape}-small.html`), { mode: 'text' });
      const lines = huge.text.split('\n');
      const cut = CUT_LINE.exec(lines[2]);
      assert.ok(cut, `no cut line under the tabs line:\n${lines.slice(0, 4).join('\n')}`);
      const elements = Number(cut[1].replaceAll(',', ''));
      assert.ok(elements > 10_000 && elements < HUGE_NODES, cut[1]);
      assert.equal(Number(cut[2].replaceAll(',', '')), huge.stats.axNodes);
      assert.equal(huge.stats.cut, true);
      // The small page is read whole, as every page was before: no line, no cut.
      assert.equal(small.stats.cut, false);
      assert.ok(!small.text.includes('observation cut'), small.text);
      // Tabs line aside (the tabs are other pages), the two say the same.
      assert.deepEqual(lines.slice(3), small.text.split('\n').slice(2));
      assert.ok(huge.stats.axNodes < 1_000, `read ${huge.stats.axNodes} nodes`);
    });
  }

  test('the whole-page option reads further, still cut', async () => {
    const tabId = await tabOf('/rows.html');
    const viewport = await observe(extPage, tabId, { mode: 'text' });
    const whole = await observe(extPage, tabId, { mode: 'text', wholePage: true });
    assert.match(whole.text.split('\n')[2], CUT_LINE);
    assert.ok(whole.stats.lines > 2 * viewport.stats.lines, `${whole.stats.lines} lines, viewport ${viewport.stats.lines}`);
    assert.ok(lineWith(whole.text, "link 'Row 80'"), 'two viewports below are read');
    assert.ok(!lineWith(viewport.text, "link 'Row 80'"), 'the viewport alone ends above');
  });

  test('an id of the cut text clicks its element through the act path', async () => {
    // A URL of its own: the tabs of the tests above show the same page.
    const url = sites.url('huge', '/rows.html?session');
    const { session } = await startSession(extPage, [url]);
    const page = await waitForPage(ext.context, (u) => u === url);
    const obs = await observe(extPage, session.currentTabId, { mode: 'text' });
    assert.match(obs.text.split('\n')[2], CUT_LINE);
    const pick = lineWith(obs.text, "button 'Pick 7'");
    assert.ok(pick, obs.text);
    const reply = await sendOk(extPage, 'act', { sessionId: session.id, actionText: `click [${pick.id}]` });
    assert.equal(reply.result.error ?? null, null, JSON.stringify(reply.result));
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).hopbenchClicks), ['Pick 7']);
    await sendOk(extPage, 'endSession', { sessionId: session.id });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.extensionErrors(), [], ext.describeErrors());
  });
});
