// ./build.sh bench: how long an observation takes compared with the bare CDP fetch
// of the accessibility tree, on test pages, a generated 3k-element page and every
// sandbox site; how many cl100k tokens its text is in MMInA's format and in the compact
// one; the harness's time per step (observe, act, settle) replaying the bundled 10-hop
// task; how big the wasm core is and how long the service worker takes to get it
// ready (the median of several worker starts, with where the time goes and how much
// of reading the file is its size). Prints figures; asserts nothing.
//
// The bare fetch and the whole observation both run in the extension's service
// worker, so they pay the same chrome.debugger transport.

import { mkdtempSync, mkdirSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { launchExtension, observe, sendOk } from '../../runner/driver.mjs';
import { distDir } from '../e2e/paths.mjs';
import { sitesRoot, startSites } from '../e2e/sites.mjs';
import { lineWith } from '../e2e/observe-helpers.mjs';
import { startSession } from '../e2e/session-helpers.mjs';
import { copyBundledTasks } from '../e2e/bundled-tasks.mjs';
import { freePortBase, SANDBOX_SITES } from '../e2e/free-ports.mjs';
import { hopbenchBin } from '../e2e/native.mjs';
import { runRunner } from '../e2e/runner-process.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { missingPackages } from '../realsw/packages.mjs';
import { startRealSites } from '../realsw/real-sites.mjs';
import { workerControl } from '../e2e/worker-control.mjs';
import { generatedPage } from './generate-page.mjs';
import { SNAPSHOT_PARAMS } from '../../extension/worker/observe/input.js';

const RUNS = Number(process.env.HOPBENCH_BENCH_RUNS ?? 7);
/** Replays of the 10-hop task for the per-step figures. */
const STEP_RUNS = Number(process.env.HOPBENCH_BENCH_STEP_RUNS ?? 5);
/** Pages whose bare fetch is quicker than this are observed `QUICK_RUNS_FACTOR` times as often. */
const QUICK_FETCH_MS = 100;
const QUICK_RUNS_FACTOR = 3;
const TEN_HOPS = 'sb-46-new-york-holiday';
/** Browser launches for the first init after a launch (one more comes with the main measurements). */
const LAUNCHES = Number(process.env.HOPBENCH_BENCH_LAUNCHES ?? 4);

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The gzipped size as `./build.sh build` prints it (`gzip -9`), so both commands give
 * the same figure for the same file (node's zlib at level 9 makes ~1 % more).
 * @param {string} path
 */
function gzippedSize(path) {
  return execFileSync('gzip', ['-9c', path], { maxBuffer: 64 * 1024 * 1024 }).length;
}

/** A temporary site folder holding the generated page and its four images. */
function makeGeneratedSite() {
  const root = mkdtempSync(join(tmpdir(), 'hopbench-bench-'));
  mkdirSync(join(root, 'generated', 'img'), { recursive: true });
  writeFileSync(join(root, 'generated', 'index.html'), generatedPage());
  const images = ['red.png', 'green.png', 'purple.png', 'red.png'];
  images.forEach((name, i) =>
    copyFileSync(join(sitesRoot, 'obs-page', 'img', name), join(root, 'generated', 'img', `p${i}.png`)),
  );
  return root;
}

/**
 * The bare CDP fetch, timed inside the service worker (the extension is attached):
 * getFullAXTree of the tab and of each out-of-process iframe, concurrently. The
 * child sessions are the ones cdp/cdp.js recorded in chrome.storage.session.
 * @param {import('../types.mjs').Extension} ext
 * @param {number} tabId
 */
function timeAxFetch(ext, tabId) {
  return timeFetch(ext, tabId, null);
}

/**
 * The same trees with the DOM snapshot the observation asks for beside them, sent
 * together as observe/gather.js sends them. The renderer answers the two one after
 * the other, so this is the least a whole observation can take: the ratio's floor.
 * @param {import('../types.mjs').Extension} ext
 * @param {number} tabId
 */
function timeTreesAndSnapshot(ext, tabId) {
  return timeFetch(ext, tabId, SNAPSHOT_PARAMS);
}

/**
 * @param {import('../types.mjs').Extension} ext
 * @param {number} tabId
 * @param {object | null} snapshotParams also capture a DOM snapshot per target
 */
function timeFetch(ext, tabId, snapshotParams) {
  return ext.worker.evaluate(async ([id, snapshot]) => {
    const key = `cdp.children.${id}`;
    /** @type {{ sessionId: string }[]} */
    const children = /** @type {{ sessionId: string }[] | undefined} */ ((await chrome.storage.session.get(key))[key]) ?? [];
    /** @type {chrome.debugger.Debuggee[]} */
    const targets = [{ tabId: id }, ...children.map((c) => ({ tabId: id, sessionId: c.sessionId }))];
    const started = performance.now();
    const [trees] = await Promise.all([
      Promise.all(targets.map((target) => chrome.debugger.sendCommand(target, 'Accessibility.getFullAXTree', {}))),
      snapshot ? Promise.all(targets.map((target) => chrome.debugger.sendCommand(target, 'DOMSnapshot.captureSnapshot', snapshot))) : [],
    ]);
    return {
      ms: performance.now() - started,
      nodes: trees.reduce((n, t) => n + /** @type {{ nodes: unknown[] }} */ (t).nodes.length, 0),
    };
  }, /** @type {const} */ ([tabId, snapshotParams]));
}

/**
 * @param {import('../types.mjs').Extension} ext
 * @param {import('../types.mjs').Page} extPage
 * @param {number} tabId
 */
async function measure(ext, extPage, tabId) {
  await observe(extPage, tabId, { mode: 'text+images' }); // attach + warm-up
  // A fetch of a few milliseconds varies by about one from run to run: small pages
  // get more runs, so their ratios are steadier.
  const runs = (await timeAxFetch(ext, tabId)).ms < QUICK_FETCH_MS ? RUNS * QUICK_RUNS_FACTOR : RUNS;
  /** @type {number[]} */
  const fetches = [];
  /** @type {number[]} */
  const withSnapshot = [];
  /** @type {number[]} */
  const text = [];
  /** @type {number[]} text minus the trees and snapshot just before it, per run */
  const above = [];
  /** @type {number[]} */
  const full = [];
  /** @type {number[]} */
  const visuals = [];
  /** @type {number[]} */
  const compact = [];
  /** @type {import('../../runner/extension.mjs').ExtensionData} */
  let last = {};
  /** @type {import('../../runner/extension.mjs').ExtensionData} */
  let lastCompact = {};
  let nodes = 0;
  for (let i = 0; i < runs; i++) {
    const fetched = await timeAxFetch(ext, tabId);
    fetches.push(fetched.ms);
    nodes = fetched.nodes;
    const snapshotMs = (await timeTreesAndSnapshot(ext, tabId)).ms;
    const textMs = (await observe(extPage, tabId, { mode: 'text' })).timings.totalMs;
    withSnapshot.push(snapshotMs);
    text.push(textMs);
    above.push(textMs - snapshotMs);
    last = await observe(extPage, tabId, { mode: 'text+images' });
    full.push(last.timings.totalMs);
    visuals.push(last.timings.visualsMs);
    lastCompact = await observe(extPage, tabId, { mode: 'text', format: 'compact' });
    compact.push(lastCompact.timings.totalMs);
  }
  return {
    nodes,
    fetch: median(fetches),
    withSnapshot: median(withSnapshot),
    text: median(text),
    above: median(above),
    full: median(full),
    visuals: median(visuals),
    compact: median(compact),
    last,
    lastCompact,
  };
}

/**
 * The core's init as the popup shows it (`initMs` of getCoreStatus: fetch, compile
 * and instantiate the wasm, then the first call), over `RUNS` fresh worker starts:
 * the worker is stopped, and the status message starts it again.
 * @param {import('playwright-core').Page} extPage
 * @returns {Promise<number[]>}
 */
async function timeWorkerStarts(extPage) {
  const control = await workerControl(extPage);
  /** @type {number[]} */
  const starts = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      await control.stop();
      const reply = await sendOk(extPage, 'getCoreStatus');
      starts.push(reply.initMs);
    }
  } finally {
    await control.detach();
  }
  return starts;
}

/**
 * The core's first init after a browser's launch, as the popup shows it: the popup
 * page, opened right after the launch, asks for the core. One launch is one figure,
 * and Chromium's own start-up on the same cores moves it by tens of percent, so the
 * bench launches several browsers, one after another.
 * @param {number} launches
 * @returns {Promise<number[]>}
 */
async function timeFirstInits(launches) {
  /** @type {number[]} */
  const inits = [];
  for (let i = 0; i < launches; i += 1) {
    const launched = await launchExtension();
    try {
      const popup = await launched.openExtensionPage('popup.html');
      inits.push((await sendOk(popup, 'getCoreStatus')).initMs);
    } finally {
      await launched.close();
    }
  }
  return inits;
}

/**
 * Where init time goes, measured in a fresh extension page each run (a service
 * worker cannot import a module dynamically): reading the file, compiling it from
 * bytes and by streaming, instantiating (with the core's start function) and the
 * first call.
 * @param {{ openExtensionPage: (path: string) => Promise<import('playwright-core').Page> }} ext
 * @returns {Promise<Record<string, number>>} the median of each part, in ms
 */
async function timeInitParts(ext) {
  /** @type {Record<string, number[]>} */
  const parts = {};
  for (let i = 0; i < RUNS; i += 1) {
    const page = await ext.openExtensionPage('observation.html');
    const run = await page.evaluate(async () => {
      const url = chrome.runtime.getURL('pkg/hopbench_bg.wasm');
      const t0 = performance.now();
      const bytes = await (await fetch(url)).arrayBuffer();
      const t1 = performance.now();
      const module = await WebAssembly.compile(bytes);
      const t2 = performance.now();
      await WebAssembly.compileStreaming(fetch(url));
      const t3 = performance.now();
      const glue = await import(chrome.runtime.getURL('pkg/hopbench.js'));
      const t4 = performance.now();
      glue.initSync({ module });
      const t5 = performance.now();
      glue.core_version();
      const t6 = performance.now();
      return { fetch: t1 - t0, compile: t2 - t1, compileStreaming: t3 - t2, importGlue: t4 - t3, instantiate: t5 - t4, firstCall: t6 - t5 };
    });
    await page.close();
    for (const [name, ms] of Object.entries(run)) (parts[name] ??= []).push(ms);
  }
  return Object.fromEntries(Object.entries(parts).map(([name, values]) => [name, median(values)]));
}

/**
 * How much of reading the wasm is its size: one extension page, once it has loaded (a
 * page still loading slows its own reads), reads a 1 KB file and the wasm in turns.
 * @param {{ openExtensionPage: (path: string) => Promise<import('playwright-core').Page> }} ext
 * @returns {Promise<{ smallMs: number, wasmMs: number, smallBytes: number, wasmBytes: number }>} medians
 */
async function timeFileReads(ext) {
  const page = await ext.openExtensionPage('observation.html');
  try {
    await page.waitForLoadState('load');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reads = await page.evaluate(async (rounds) => {
      /** @param {string} path */
      const read = async (path) => {
        const t0 = performance.now();
        // A query per read: nothing in between may keep the bytes.
        const bytes = await (await fetch(`${chrome.runtime.getURL(path)}?read=${Math.random()}`)).arrayBuffer();
        return { ms: performance.now() - t0, bytes: bytes.byteLength };
      };
      /** @type {{ ms: number, bytes: number }[]} */
      const small = [];
      /** @type {{ ms: number, bytes: number }[]} */
      const wasm = [];
      for (let i = 0; i < rounds; i += 1) {
        small.push(await read('manifest.json'));
        wasm.push(await read('pkg/hopbench_bg.wasm'));
      }
      return { small, wasm };
    }, RUNS * 2);
    return {
      smallMs: median(reads.small.map((r) => r.ms)),
      wasmMs: median(reads.wasm.map((r) => r.ms)),
      smallBytes: reads.small[0]?.bytes ?? 0,
      wasmBytes: reads.wasm[0]?.bytes ?? 0,
    };
  } finally {
    await page.close();
  }
}

/**
 * Until the session tab has loaded its page (START_SESSION returns before that).
 * @param {import('../types.mjs').Page} extPage
 * @param {number} tabId
 */
async function waitLoaded(extPage, tabId) {
  await extPage.evaluate(async (id) => {
    for (let i = 0; i < 400; i += 1) {
      const tab = await chrome.tabs.get(id);
      if (tab.status === 'complete' && tab.url) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`tab ${id} did not finish loading`);
  }, tabId);
}

/**
 * @param {unknown[]} cells
 * @param {number[]} widths
 */
function row(cells, widths) {
  return cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
}

/**
 * The harness's time per step without a model: the bundled 10-hop task replayed by the
 * runner, as a batch runs it, `STEP_RUNS` times; each step's record splits its time
 * into observing, acting and settling, and says which signal ended the settle.
 * @param {number} base the sandbox's port base
 */
async function stepTimings(base) {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-bench-steps-'));
  try {
    const tasks = join(dir, 'tasks');
    mkdirSync(tasks);
    copyBundledTasks([TEN_HOPS], tasks, base);
    /** @type {{ observe: number, act: number, settle: number, by: string, signal: number | null }[]} */
    const steps = [];
    for (let run = 0; run < STEP_RUNS; run += 1) {
      const out = join(dir, `out-${run}`);
      const done = await runRunner(['--tasks', tasks, '--out', out]);
      if (done.status !== 0) throw new Error(`the replay of ${TEN_HOPS} failed:\n${done.stdout}\n${done.stderr}`);
      const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${TEN_HOPS}.json`), 'utf8'));
      for (const step of trajectory.steps) {
        const t = step.timings;
        if (t.settle_ms === null || t.settle_ms === undefined) continue; // stop: nothing to settle
        steps.push({ observe: t.observe_ms, act: t.act_ms, settle: t.settle_ms, by: t.settled_by, signal: t.settle_signal_ms });
      }
    }
    const p90 = (/** @type {number[]} */ values) => {
      const sorted = [...values].sort((x, y) => x - y);
      return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)];
    };
    const figure = (/** @type {number[]} */ values) => `median ${median(values).toFixed(0)} ms, p90 ${p90(values).toFixed(0)} ms`;
    const by = steps.reduce((/** @type {Record<string, number>} */ counts, s) => ({ ...counts, [s.by]: (counts[s.by] ?? 0) + 1 }), {});
    console.log(`\nharness time per step (${TEN_HOPS} replayed ${STEP_RUNS}x, ${steps.length} steps with an action, no model):`);
    console.log(`  observe        ${figure(steps.map((s) => s.observe))}`);
    console.log(`  act            ${figure(steps.map((s) => s.act))}`);
    console.log(`  settle         ${figure(steps.map((s) => s.settle))}`);
    console.log(`  act + settle   ${figure(steps.map((s) => s.act + s.settle))}`);
    console.log(`  settle ended by: ${Object.entries(by).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    // The page's own time (until its last signal) and what the quiet windows added.
    const signalled = steps.filter((s) => typeof s.signal === 'number');
    if (signalled.length > 0) {
      console.log(`  settle split (${signalled.length} steps with a signal): last signal ${figure(signalled.map((s) => Number(s.signal)))}; ` +
        `windows after it ${figure(signalled.map((s) => s.settle - Number(s.signal)))}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const generatedRoot = makeGeneratedSite();
  const generated = await startSites({ root: generatedRoot, names: ['generated'] });
  const small = await startSites({ names: ['obs-page', 'obs-kiwix'] });
  const base = await freePortBase();
  const sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
  // Real software when its Debian packages are here (the realsw tier installs them).
  const missing = missingPackages();
  const real = missing.length === 0 ? await startRealSites() : null;
  if (!real) console.log(`(no real pages: missing ${missing.map((p) => p.name).join(', ')}; ./build.sh test installs them)`);
  /** @type {import('../types.mjs').Extension | undefined} */
  let ext;
  try {
    // The step figures first, with no other browser open: a batch lane runs one browser.
    await stepTimings(base);
    const firstInits = await timeFirstInits(LAUNCHES);
    ext = await launchExtension();
    const pages = [
      ['generated (3k elements)', generated.url('generated', '/')],
      ['obs-page', small.url('obs-page', '/')],
      ['obs-kiwix (OOPIF)', small.url('obs-kiwix', '/')],
      ...Array.from({ length: SANDBOX_SITES }, (_, i) => [`sandbox site ${i + 1}`, `http://127.0.0.1:${base + i}/`]),
      ...(real
        ? [
          ['kiwix-serve: Tokyo', real.kiwix.article('Tokyo')],
          ['kiwix-serve: Paris', real.kiwix.article('Paris')],
          ['MediaWiki: Tokyo', real.wiki.article('Tokyo')],
          ['MediaWiki: Paris', real.wiki.article('Paris')],
        ]
        : []),
    ];
    const extPage = await ext.openExtensionPage('popup.html');
    // The core's first init after the launch, which the popup page just asked for (the
    // core is loaded when first needed): what the popup shows after a launch.
    firstInits.push((await sendOk(extPage, 'getCoreStatus')).initMs);
    const widths = [24, 8, 8, 8, 8, 8, 11, 10, 6, 6, 6, 7, 8, 8, 7];
    console.log(
      `\nobservation benchmark: median of ${RUNS} runs (${RUNS * QUICK_RUNS_FACTOR} where the bare fetch takes under ${QUICK_FETCH_MS} ms); ` +
        'ratio = whole observation (text+images) / bare getFullAXTree;',
    );
    console.log('+snap = the trees with the DOM snapshot beside them, as the observation sends them; floor = +snap / fetch,');
    console.log('the least an observation can take (the renderer answers the two one after the other); text r = text / fetch;');
    console.log('above = text - +snap, run by run: what the observation adds to the renderer\'s answers, in ms (the ratios move');
    console.log('with the fetch, which differs by up to a tenth between runs of the same code; this figure moves much less)');
    console.log('tokens (cl100k): the text in MMInA\'s format and in the compact one; c/m = compact / MMInA\n');
    console.log(
      row(['page', 'AX nodes', 'fetch ms', '+snap ms', 'text ms', 'above ms', 'text+img ms', 'compact ms', 'floor', 'text r', 'ratio', 'images', 'tokens m', 'tokens c', 'c/m'], widths),
    );
    /** @type {number[]} */
    const tokenRatios = [];
    /** @type {number[]} */
    const ratios = [];
    /** @type {number[]} */
    const textRatios = [];
    /** @type {number[]} */
    const floors = [];
    /** @type {number[]} */
    const aboves = [];
    for (const [name, url] of pages) {
      // In a session, as an agent run observes: the debugger stays attached between
      // observations (a tab outside every session is left after each one).
      const { session } = await startSession(extPage, [url]);
      const tabId = session.currentTabId;
      await waitLoaded(extPage, tabId);
      const m = await measure(ext, extPage, tabId);
      const tokens = encode(m.last.text).length;
      const compactTokens = encode(m.lastCompact.text).length;
      tokenRatios.push(compactTokens / tokens);
      ratios.push(m.full / m.fetch);
      textRatios.push(m.text / m.fetch);
      floors.push(m.withSnapshot / m.fetch);
      // The generated page's difference is tens of ms of the renderer's own spread.
      if (m.fetch < QUICK_FETCH_MS) aboves.push(m.above);
      console.log(
        row(
          [name, m.nodes, m.fetch.toFixed(1), m.withSnapshot.toFixed(1), m.text.toFixed(1), m.above.toFixed(1), m.full.toFixed(1), m.compact.toFixed(1),
            (m.withSnapshot / m.fetch).toFixed(2), (m.text / m.fetch).toFixed(2), (m.full / m.fetch).toFixed(2), m.last.images.length, tokens, compactTokens, (compactTokens / tokens).toFixed(2)],
          widths,
        ),
      );
      const t = m.last.timings;
      console.log(
        `${''.padStart(24)}  last run: axFetch ${t.axFetchMs} ms (inside the gather), cdp ${t.cdpMs}, core ${t.coreMs}, ` +
          `visuals ${t.visualsMs}; core input ${(m.last.stats.inputBytes / 1024).toFixed(0)} KiB, ${m.last.stats.lines} lines`,
      );
      if (!lineWith(m.last.text, 'RootWebArea')) throw new Error(`${name}: observation has no root line`);
      await sendOk(extPage, 'endSession', { sessionId: session.id });
    }
    console.log(
      `\ncompact / MMInA tokens: worst ${Math.max(...tokenRatios).toFixed(2)}, median ${median(tokenRatios).toFixed(2)}; ` +
        `observation / bare fetch: worst ${Math.max(...ratios).toFixed(2)}, median ${median(ratios).toFixed(2)}; ` +
        `text only: worst ${Math.max(...textRatios).toFixed(2)}, median ${median(textRatios).toFixed(2)}; ` +
        `floor: worst ${Math.max(...floors).toFixed(2)}, median ${median(floors).toFixed(2)}; ` +
        (aboves.length
          ? `above the floor, pages under ${QUICK_FETCH_MS} ms: median ${median(aboves).toFixed(1)} ms, worst ${Math.max(...aboves).toFixed(1)} ms`
          : `above the floor: no page's bare fetch took under ${QUICK_FETCH_MS} ms (see the column)`),
    );
    const wasmPath = join(distDir, 'pkg', 'hopbench_bg.wasm');
    const raw = readFileSync(wasmPath).length;
    const gz = gzippedSize(wasmPath);
    console.log(`\nwasm core: ${Math.floor(raw / 1024)} KiB raw (${raw} bytes), ${Math.floor(gz / 1024)} KiB gzipped (${gz} bytes)`);
    const starts = await timeWorkerStarts(extPage);
    console.log(
      `core init (worker start: wasm fetch + compile + instantiate + first call, as the popup shows it): ` +
        `median ${median(starts).toFixed(1)} ms of ${starts.length} restarts (${starts.map((ms) => ms.toFixed(1)).join(', ')}); ` +
        `first init after the browser's launch: median ${median(firstInits).toFixed(1)} ms of ${firstInits.length} launches ` +
        `(${firstInits.map((ms) => ms.toFixed(1)).join(', ')})`,
    );
    const parts = await timeInitParts(ext);
    console.log(
      `  where it goes (medians, in an extension page): ` +
        Object.entries(parts).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ') + ' ms',
    );
    const reads = await timeFileReads(ext);
    const perMb = ((reads.wasmMs - reads.smallMs) / (reads.wasmBytes - reads.smallBytes)) * 1e6;
    console.log(
      `  reading a file, in a loaded extension page (medians of ${RUNS * 2}): ` +
        `manifest.json (${reads.smallBytes} bytes) ${reads.smallMs.toFixed(1)} ms, ` +
        `the wasm (${reads.wasmBytes} bytes) ${reads.wasmMs.toFixed(1)} ms: its size costs about ${perMb.toFixed(1)} ms per MB`,
    );
    if (ext.errors.length > 0) console.log(`errors logged during the run:\n${ext.describeErrors()}`);
  } finally {
    await ext?.close();
    await generated.close();
    await small.close();
    await sandbox.stop();
    await real?.stop();
    rmSync(generatedRoot, { recursive: true, force: true });
  }
}

await main();
