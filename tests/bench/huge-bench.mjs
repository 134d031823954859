// ./build.sh bench-huge: the observation of pages too big to read whole
// (docs/observation.md "The bound"), on generated pages of 200,000 DOM nodes in three
// shapes (tests/bench/generate-huge-page.mjs). Per shape, in a fresh browser: the
// memory of every Chromium process before the page, with the page loaded, at the
// peak of its first observation and after it; how long the first and a second
// observation take and what they hold (tokens, bytes, whether cut); and, in a run
// with a fake model, the time from the page's load event to the first model call.
// With --candidates, the DevTools commands the bound was chosen among, each alone in
// a fresh browser (huge-candidates.mjs). Prints figures; asserts nothing.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { launchExtension, newProfileDir, observe, sendOk, tabIdOf } from '../../runner/driver.mjs';
import { FAKE_KEY, startFakeProviders } from '../e2e/fake-providers.mjs';
import { taskText, waitForPage } from '../e2e/session-helpers.mjs';
import { startSites } from '../e2e/sites.mjs';
import { chromiumMemory, peakMemoryDuring } from './chromium-memory.mjs';
import { HUGE_SHAPES, hugePage } from './generate-huge-page.mjs';
import { runCandidates } from './huge-candidates.mjs';

const NODES = Number(process.env.HOPBENCH_HUGE_NODES ?? 200_000);
/** How long the first model call may take to come before the bench gives up on it. */
const FIRST_CALL_WAIT_MS = 120_000;
/** Memory settles for this long after a load before it is read. */
const SETTLE_MS = 1_500;

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One shape in a fresh browser: the page and its observation, then a run on it.
 * @param {import('../types.mjs').Sites} sites
 * @param {import('../types.mjs').FakeProviders} fake
 * @param {import('./generate-huge-page.mjs').HugeShape} shape
 */
async function measureShape(sites, fake, shape) {
  const profileDir = newProfileDir();
  const ext = await launchExtension({ profileDir });
  try {
    const extPage = await ext.openExtensionPage('popup.html');
    await sendOk(extPage, 'saveSettings', {
      settings: { model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent', api_key: FAKE_KEY }, max_steps: 1 },
      observation: { mode: 'text' },
    });
    await sleep(SETTLE_MS);
    const before = chromiumMemory(profileDir);
    const started = Date.now();
    const page = await ext.openPage(sites.url('huge', `/${shape}.html`));
    const loadMs = Date.now() - started;
    await sleep(SETTLE_MS);
    const loaded = chromiumMemory(profileDir);
    const tabId = await tabIdOf(extPage, page.url());
    const { result: first, peak } = await peakMemoryDuring(profileDir, () => observe(extPage, tabId, { mode: 'text' }));
    const again = await observe(extPage, tabId, { mode: 'text' });
    await sleep(SETTLE_MS);
    const after = chromiumMemory(profileDir);
    await page.close();
    const firstCall = await firstModelCall(ext, extPage, sites, fake, shape);
    return { loadMs, before, loaded, peak, after, first, again, firstCall };
  } finally {
    await ext.close();
  }
}

/**
 * A run on the page with the fake model: from the load event of the run's page to the
 * first model request the fake receives (the run observes first, then calls).
 * @param {import('../types.mjs').Extension} ext
 * @param {import('../types.mjs').Page} extPage
 * @param {import('../types.mjs').Sites} sites
 * @param {import('../types.mjs').FakeProviders} fake
 * @param {string} shape
 */
async function firstModelCall(ext, extPage, sites, fake, shape) {
  fake.reset();
  fake.script({ text: 'The page is huge. In summary, the next action I will perform is ```stop [done]```' });
  const url = sites.url('huge', `/${shape}.html?run`);
  const { runId } = await sendOk(extPage, 'startRun', {
    taskText: taskText({ id: `bench/huge-${shape}`, startUrls: [url] }),
    fileName: 'huge.json',
    overrides: { max_steps: 1 },
  });
  try {
    const page = await waitForPage(ext.context, (u) => u === url, 60_000);
    const loadAt = await page.evaluate(() => {
      const [nav] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType('navigation'));
      return performance.timeOrigin + nav.loadEventEnd;
    });
    await fake.waitForRequests(1, FIRST_CALL_WAIT_MS);
    const call = fake.requests[0];
    return { ms: call.at - loadAt, promptChars: call.text.length };
  } catch (error) {
    return { ms: NaN, promptChars: 0, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await sendOk(extPage, 'stopRun', { runId }).catch(() => undefined);
  }
}

/** @param {number} mb */
const signed = (mb) => `${mb >= 0 ? '+' : ''}${mb}`;

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'hopbench-bench-huge-'));
  mkdirSync(join(root, 'huge'));
  for (const shape of HUGE_SHAPES) writeFileSync(join(root, 'huge', `${shape}.html`), hugePage({ nodes: NODES, shape }));
  const sites = await startSites({ root, names: ['huge'] });
  const fake = await startFakeProviders();
  try {
    console.log(`bounded observation of generated pages of ${NODES.toLocaleString('en')} DOM nodes (elements and texts), one fresh browser each;`);
    console.log('memory: resident MB of every Chromium process (ps RSS, summed), and the browser process alone;');
    console.log('tokens: cl100k of the observation text; first call: from the page\'s load event to the fake model\'s first request\n');
    for (const shape of HUGE_SHAPES) {
      const m = await measureShape(sites, fake, shape);
      const text = m.first.text;
      const cut = text.split('\n').find((/** @type {string} */ line) => line.startsWith('[observation cut'));
      console.log(`${shape}: page load ${m.loadMs} ms; the page costs ${signed(m.loaded.total - m.before.total)} MB ` +
        `(${m.before.total} -> ${m.loaded.total} MB, browser process ${m.before.browser} -> ${m.loaded.browser})`);
      console.log(`  first observation ${m.first.timings.totalMs} ms (the trees ${m.first.timings.axFetchMs}, core ${m.first.timings.coreMs}); ` +
        `again ${m.again.timings.totalMs} ms`);
      console.log(`  memory over the loaded page: peak ${signed(m.peak.total - m.loaded.total)} MB ` +
        `(browser ${signed(m.peak.browser - m.loaded.browser)}, page renderers ${signed(m.peak.renderers - m.loaded.renderers)}, ` +
        `extension ${signed(m.peak.extension - m.loaded.extension)}), after ${signed(m.after.total - m.loaded.total)} MB`);
      console.log(`  text: ${encode(text).length} tokens, ${Buffer.byteLength(text)} bytes, ${m.first.stats.lines} lines, ` +
        `${m.first.stats.axNodes} AX nodes read, core input ${m.first.stats.inputBytes} bytes; ${cut ?? 'not cut'}`);
      console.log(`  first model call ${Number.isNaN(m.firstCall.ms) ? `none: ${m.firstCall.error}` : `${Math.round(m.firstCall.ms)} ms after the load`}` +
        ` (prompt ${m.firstCall.promptChars} characters)\n`);
    }
    if (process.argv.includes('--candidates')) await runCandidates(sites, NODES);
  } finally {
    await fake.close();
    await sites.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
