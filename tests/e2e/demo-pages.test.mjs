// The demo's trajectory pages show every step's pictures (README "Headless runs and
// reports"): a few bundled tasks run as the demo runs them (sandbox, replay agent,
// the default text+images mode) against a sandbox of the test's own on free ports
// (the tasks' URLs rewritten to them); then, per step of every trajectory page, the
// `<img>` count equals the step's references (its screenshot, given to the model or
// taken for the reader, plus every labelled image), and a page opened in headless
// Chromium logs no console error and loads every image.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchPlain } from '../../runner/browser.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { chromiumPath, repoRoot } from './paths.mjs';
import { runRunner } from './runner-process.mjs';

/** Bundled tasks whose pages carry pictures: a product, a flight, a video then a shop. */
const TASKS = ['sb-01-beanie-colour.json', 'sb-23-sfo-tokyo-tail-colour.json', 'sb-39-kimchi-video-then-shop.json'];
const SITES = 11;

/** The task's text with the sandbox's fixed ports 8600-8610 moved to `base`. */
/** @param {string} text @param {number} base */
const onPorts = (text, base) => text.replace(/127\.0\.0\.1:86(\d\d)/g, (_, /** @type {string} */ site) => `127.0.0.1:${base + Number(site)}`);

/**
 * A step's picture references: its screenshot (either kind) and its images.
 * @param {import('../types.mjs').Json} step a trajectory step
 */
function references(step) {
  const obs = step.observation ?? {};
  const shot = obs.screenshot ?? obs.page_screenshot ?? null;
  return (shot ? 1 : 0) + (obs.images ?? []).length;
}

describe('the demo\'s trajectory pages show every step\'s pictures', { timeout: 300_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {string} */ let out;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */ let sandbox;
  /** @type {import('../types.mjs').RunnerResult} */ let run;
  /** @type {string[]} */ const sandboxLines = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-demo-pages-'));
    out = join(dir, 'out');
    const base = await freePortBase(SITES);
    sandbox = await startSandbox(hopbenchBin(), (l) => sandboxLines.push(l), ['--port-base', String(base)]);
    mkdirSync(join(dir, 'tasks'));
    for (const name of TASKS) {
      writeFileSync(join(dir, 'tasks', name), onPorts(readFileSync(join(repoRoot, 'tasks', name), 'utf8'), base));
    }
    run = await runRunner(['--tasks', join(dir, 'tasks'), '--out', out, '--task-timeout', '120']);
  });

  after(async () => {
    await sandbox?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the tasks pass as in the demo', () => {
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\n${sandboxLines.join('\n')}`);
    assert.match(run.stdout, new RegExp(`^${TASKS.length} tasks: ${TASKS.length} PASS, 0 FAIL, 0 ERROR$`, 'm'), run.stdout);
  });

  test('each step section has one <img> per picture reference, and every step has one', () => {
    const folder = join(out, 'trajectories');
    const pages = readdirSync(folder).filter((f) => f.endsWith('.json'));
    assert.equal(pages.length, TASKS.length);
    let images = 0;
    for (const json of pages) {
      const trajectory = JSON.parse(readFileSync(join(folder, json), 'utf8'));
      const html = readFileSync(join(folder, json.replace(/\.json$/, '.html')), 'utf8');
      const sections = html.split('<section class="step"').slice(1);
      assert.equal(sections.length, trajectory.steps.length, json);
      for (const [i, step] of trajectory.steps.entries()) {
        const expected = references(step);
        assert.ok(expected >= 1, `${json} step ${step.step} has a screenshot`);
        assert.equal(sections[i].match(/<img /g)?.length ?? 0, expected, `${json} step ${step.step}`);
        assert.doesNotMatch(sections[i], / lost: /, `${json} step ${step.step}: nothing lost`);
        images += (step.observation.images ?? []).length;
      }
    }
    assert.ok(images > 0, 'the pages had labelled images to show');
  });

  test('a trajectory page in Chromium: no console error, every image loaded', async () => {
    const browser = await launchPlain({ chromiumPath });
    try {
      const page = await browser.newPage();
      /** @type {string[]} */ const problems = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`pageerror: ${e}`));
      const file = readdirSync(join(out, 'trajectories')).find((f) => f.startsWith('sb-39') && f.endsWith('.html'));
      await page.goto(pathToFileURL(join(out, 'trajectories', /** @type {string} */ (file))).href, { waitUntil: 'load' });
      const loaded = await page.$$eval('img', (imgs) => imgs.map((i) => [i.getAttribute('src'), i.complete && i.naturalWidth > 0]));
      assert.ok(loaded.length > 0);
      assert.deepEqual(loaded.filter(([, ok]) => !ok), [], 'images that did not load');
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  });
});
