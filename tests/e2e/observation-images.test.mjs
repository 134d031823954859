// Images and screenshots a multimodal model gets, and the "show observation" view.
// Pixels are read back in an extension page: each image must carry a yellow label
// box and keep its own colours, and its id must be the id of its element's line.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, sendOk, tabIdOf } from '../../runner/driver.mjs';
import { lineWith } from './observe-helpers.mjs';
import { startSites } from './sites.mjs';

/** Label background painted by the worker (extension/worker/observe/images.js). */
const YELLOW = [255, 235, 59];

/**
 * Decodes a data URL in the page; returns its size and the RGB at the given points.
 * @param {import('../types.mjs').Page} page
 * @param {string} dataUrl
 * @param {[number, number][]} points
 */
function pixels(page, dataUrl, points) {
  return page.evaluate(
    async ([url, pts]) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      // A 2d context is always there for an OffscreenCanvas.
      const ctx = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext('2d'));
      ctx.drawImage(bitmap, 0, 0);
      /** @param {[number, number]} point */
      const at = ([x, y]) => {
        const px = Math.min(bitmap.width - 1, x < 0 ? bitmap.width + x : x);
        const py = Math.min(bitmap.height - 1, y < 0 ? bitmap.height + y : y);
        return [...ctx.getImageData(px, py, 1, 1).data.slice(0, 3)];
      };
      return { width: bitmap.width, height: bitmap.height, colours: pts.map(at) };
    },
    /** @type {[string, [number, number][]]} */ ([dataUrl, points]),
  );
}

/**
 * @param {number[]} actual
 * @param {number[]} expected
 * @param {number} [tolerance]
 */
const near = (actual, expected, tolerance = 12) =>
  actual.every((v, /** @type {number} */ i) => Math.abs(v - expected[i]) <= tolerance);

describe('observation images and view', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {Awaited<ReturnType<typeof tabIdOf>>} */ let tabId;
  /** @type {Awaited<ReturnType<typeof tabIdOf>>} */ let kiwixTab;
  /** @type {import('../types.mjs').Page} */ let obsPage;

  before(async () => {
    sites = await startSites({ names: ['obs-page', 'obs-kiwix'] });
    ext = await launchExtension();
    obsPage = await ext.openPage(sites.url('obs-page', '/'));
    const kiwix = await ext.openPage(sites.url('obs-kiwix', '/'));
    extPage = await ext.openExtensionPage('popup.html');
    tabId = await tabIdOf(extPage, obsPage.url());
    kiwixTab = await tabIdOf(extPage, kiwix.url());
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('each viewport image is returned with its id painted on it', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text+images' });
    const byName = new Map(obs.images.map((/** @type {import('../types.mjs').Json} */ image) => [image.name, image]));
    assert.deepEqual(
      [...byName.keys()].sort(),
      ['Blue circle', 'Purple gallery', 'Purple in cross frame', 'Red square'],
      'the green image is below the fold',
    );
    // [id] of each image is the id on its element's line of the text.
    for (const image of obs.images) {
      const line = lineWith(obs.text, `image '${image.name}'`);
      assert.equal(line?.id, image.id, `${image.name}: ${line?.line}`);
    }
    // PNGs come from the bytes the page loaded, in the page and in an out-of-process
    // frame (read through its own CDP session, with its frame id).
    for (const name of ['Red square', 'Purple gallery', 'Purple in cross frame']) {
      assert.equal(byName.get(name).from, 'page', name);
    }
    assert.deepEqual(obs.imagesNotLoaded, [], 'every image of the page loaded');
    const red = byName.get('Red square');
    const { width, height, colours } = await pixels(extPage, red.dataUrl, [[2, 2], [-3, 2]]);
    assert.deepEqual([width, height], [240, 180], 'red.png is 240x180, below the 512 bound');
    assert.ok(near(colours[0], YELLOW), `label box at the corner is yellow: ${colours[0]}`);
    assert.ok(near(colours[1], [211, 47, 47]), `the image keeps its red: ${colours[1]}`);
  });

  test('an SVG, which a worker cannot decode, is cropped from the screenshot and labelled', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text+images' });
    const blue = obs.images.find((/** @type {import('../types.mjs').Json} */ image) => image.name === 'Blue circle');
    assert.equal(blue.from, 'screenshot');
    const { width, colours } = await pixels(extPage, blue.dataUrl, [[2, 2], [-3, -3], [45, 45]]);
    assert.equal(width, 90);
    assert.ok(near(colours[0], YELLOW), `label: ${colours[0]}`);
    assert.ok(near(colours[1], [227, 242, 253]), `light corner of the SVG: ${colours[1]}`);
    assert.ok(near(colours[2], [21, 101, 192]), `blue circle in the middle: ${colours[2]}`);
  });

  test('on a scrolled page the SVG is cropped from where it now is on screen', async () => {
    // The image's rectangle is in viewport coordinates; a crop that mixed them up with
    // document coordinates (as CDP's screenshot clip reads them) would show what lies
    // above it.
    const scrolled = await obsPage.evaluate(() => {
      const top = /** @type {HTMLElement} */ (document.getElementById('img-blue')).getBoundingClientRect().top;
      window.scrollTo(0, Math.max(0, top - 30));
      return window.scrollY;
    });
    try {
      assert.ok(scrolled > 0, `the page scrolled (${scrolled})`);
      const obs = await observe(extPage, tabId, { mode: 'text+images' });
      const blue = obs.images.find((/** @type {import('../types.mjs').Json} */ image) => image.name === 'Blue circle');
      assert.ok(blue, JSON.stringify(obs.images.map((/** @type {import('../types.mjs').Json} */ i) => i.name)));
      assert.equal(blue.from, 'screenshot');
      const { width, colours } = await pixels(extPage, blue.dataUrl, [[-3, -3], [45, 45]]);
      assert.equal(width, 90);
      assert.ok(near(colours[0], [227, 242, 253]), `light corner of the SVG: ${colours[0]}`);
      assert.ok(near(colours[1], [21, 101, 192]), `blue circle in the middle: ${colours[1]}`);
    } finally {
      await obsPage.evaluate(() => window.scrollTo(0, 0));
    }
  });

  test('large images are scaled down to the longest-side bound', async () => {
    const obs = await observe(extPage, kiwixTab, { mode: 'text+images', imageMaxSide: 256 });
    const skyline = obs.images.find((/** @type {import('../types.mjs').Json} */ image) => image.name === 'Tokyo skyline');
    assert.ok(skyline, JSON.stringify(obs.images.map((/** @type {import('../types.mjs').Json} */ i) => i.name)));
    const { width, height, colours } = await pixels(extPage, skyline.dataUrl, [[2, 2], [-3, -3]]);
    assert.deepEqual([width, height], [256, 171], 'tokyo.png is 1200x800');
    assert.ok(near(colours[0], YELLOW), `label: ${colours[0]}`);
    assert.ok(near(colours[1], [21, 101, 192]), `image blue: ${colours[1]}`);
  });

  test('screenshot and set-of-marks modes return viewport pictures', async () => {
    const shot = await observe(extPage, tabId, { mode: 'text+screenshot' });
    assert.deepEqual(shot.images, []);
    const plain = await pixels(extPage, shot.screenshot, [[0, 0]]);
    assert.deepEqual([plain.width, plain.height], [1280, 720]);
    const som = await observe(extPage, tabId, { mode: 'som' });
    const button = som.marks.find((/** @type {import('../types.mjs').Json} */ m) => m.role === 'button');
    assert.equal(button.id, /** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(som.text, "button 'Search trips'")).id);
    // The mark's label box sits on the button's top-left corner, in the mark colour.
    const b = button.bounds;
    const marked = await pixels(extPage, som.som, [[Math.round(b.x) + 2, Math.round(b.y) + 2]]);
    const before = await pixels(extPage, shot.screenshot, [[Math.round(b.x) + 2, Math.round(b.y) + 2]]);
    assert.notDeepEqual(marked.colours[0], before.colours[0], 'the mark is drawn over the button');
  });

  test('the observation view shows the text and the images, with no console error', async () => {
    const storedSettings = () =>
      extPage.evaluate(async () => /** @type {import('../types.mjs').Json} */ ((await chrome.storage.local.get('settings.observation'))['settings.observation']) ?? null);
    const settingsBefore = await sendOk(extPage, 'getSettings');
    const storedBefore = await storedSettings();
    const view = await ext.openExtensionPage(`observation.html?tab=${tabId}`);
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state !== 'loading', null, {
      timeout: 20_000,
    });
    const state = await view.locator('#observation').getAttribute('data-state');
    assert.equal(state, 'ready', (await view.locator('#status').textContent()) ?? undefined);
    const text = /** @type {string} */ (await view.locator('#text').textContent());
    assert.ok(lineWith(text, "heading 'Plan your trip'"), text);
    // The tabs line lists the page's tabs, not the extension's own pages (this view, the
    // popup opened as a tab).
    // Our pages by the extension's contexts: Chromium 148 gives an extension without the
    // "tabs" permission no URL or title for its own pages' tabs.
    const windowTabs = await extPage.evaluate(async (id) => {
      const { windowId } = await chrome.tabs.get(id);
      const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.TAB] });
      const ours = new Map(contexts.map((c) => [c.tabId, c.documentUrl ?? '']));
      return (await chrome.tabs.query({ windowId })).map((t) => ({ title: t.title ?? '', url: t.url || ours.get(t.id ?? -1) || '', ours: ours.has(t.id ?? -1) }));
    }, tabId);
    const ours = windowTabs.filter((t) => t.ours);
    assert.ok(ours.length >= 2, `this view and the popup are in the page's window: ${JSON.stringify(windowTabs)}`);
    const listed = text.split('\n')[0].split(' | ');
    assert.equal(listed.length, windowTabs.length - ours.length, `${text.split('\n')[0]} / ${JSON.stringify(windowTabs)}`);
    // (Where Chrome gives our pages' titles, none is listed; the count above holds either way.)
    assert.ok(!ours.some((t) => t.title !== '' && listed.some((entry) => entry.endsWith(`: ${t.title}`))), text.split('\n')[0]);
    const captions = await view.locator('#images figcaption').allTextContents();
    assert.ok(captions.some((c) => c.startsWith(`[${/** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(text, "image 'Red square'")).id}] Red square`)), captions.join('\n'));
    await view.selectOption('#mode', 'som');
    await view.click('#refresh');
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('screenshot-title')).textContent === 'Set-of-marks screenshot' && /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state === 'ready', null, { timeout: 20_000 });
    assert.equal(await view.locator('#screenshot-section').isVisible(), true);
    // Trying a mode here is for this page only: the settings runs start with are as they were.
    assert.deepEqual(await storedSettings(), storedBefore);
    const settingsAfter = await sendOk(extPage, 'getSettings');
    assert.deepEqual(settingsAfter.observation, settingsBefore.observation);
    assert.equal(settingsAfter.observation.mode, 'text+images');
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });

  test('the popup opens the view for the active tab', async () => {
    const popup = await ext.openExtensionPage('popup.html');
    // Headless has no toolbar popup; opened as a tab, it asks Chrome the same question.
    const active = await popup.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
      return tab.id;
    });
    const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes('observation.html') });
    await popup.click('#show-observation');
    const view = await opened;
    assert.equal(new URL(view.url()).searchParams.get('tab'), String(active));
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state !== 'loading', null, {
      timeout: 20_000,
    });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });
});
