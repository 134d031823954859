// Recording changes nothing on the page. A "person" does the same things on a page
// that watches itself (tests/e2e/sites/handlers: every event its own listeners see,
// whether it was cancelled, every DOM mutation, its layout and attributes) twice: in a
// plain tab, and in a person's session that records. The page must see exactly the
// same in both, while the session records each action (click, hover, type, select,
// press, scroll) with the page's own outcome (the field holds what the page let through).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementOf, person, waitForSteps } from './human-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

const VIEWPORT = { width: 1000, height: 600 };

/**
 * The same things a person does, on `page`.
 * @param {import('../types.mjs').Page} page
 */
async function doThings(page) {
  const who = person(page);
  await who.type('#name', 'Alex'); // The page cancels the key x: the field holds "Ale".
  await who.press('Tab');
  await who.choose('#size', 'L');
  await who.click('#go'); // The page cancels the link.
  await who.click('#count');
  await who.click('#title');
  await who.think();
  // The menu is on screen: the page lays it out at the top.
  const menu = /** @type {{ x: number, y: number }} */ (await page.locator('#menu').boundingBox());
  await page.mouse.move(menu.x + 10, menu.y + 10, { steps: 5 });
  await page.waitForSelector('#submenu');
  await who.wheel(VIEWPORT.height); // One viewport: the agent's `scroll [down]`.
  await who.think();
}

/**
 * What the page saw; runs of one line (scroll events come once per frame) count once.
 * @param {import('../types.mjs').Page} page
 */
async function whatThePageSaw(page) {
  /** @param {string[]} lines */
  const collapse = (lines) => lines.filter((line, i) => line !== lines[i - 1]);
  // The page keeps its records on window (sites/handlers/index.html).
  const { seen, mutations, layout } = await page.evaluate(() => {
    const records = /** @type {Window & { seen: string[], mutations: string[], layout: () => object }} */ (/** @type {unknown} */ (window));
    return { seen: records.seen, mutations: records.mutations, layout: records.layout() };
  });
  return { seen: collapse(seen), mutations, layout };
}

describe('recording leaves the page as it is', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {Awaited<ReturnType<typeof whatThePageSaw>>} */ let plain;
  /** @type {Awaited<ReturnType<typeof whatThePageSaw>>} */ let recorded;
  /** @type {string} */ let runId;

  before(async () => {
    sites = await startSites({ names: ['handlers'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('in a plain tab', async () => {
    const page = await ext.openPage(sites.url('handlers', '/index.html'));
    await page.setViewportSize(VIEWPORT);
    await doThings(page);
    plain = await whatThePageSaw(page);
    assert.equal(await page.locator('#name').inputValue(), 'Ale');
    await page.close();
  });

  test('in a recording session', async () => {
    const taskText = JSON.stringify({
      id: 'e2e/handlers',
      intent: 'Fill in the form and open the menu.',
      start_urls: [sites.url('handlers', '/index.html')],
      hops: [{ description: 'Never reached', condition: { kind: 'url', op: 'contains', value: 'never-reached' } }],
    });
    ({ runId } = await sendOk(extPage, 'startHuman', { taskText, fileName: 'handlers.json' }));
    const page = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('handlers')));
    await page.setViewportSize(VIEWPORT);
    await sendOk(extPage, 'humanControl', { runId, command: 'start' });
    await doThings(page);
    recorded = await whatThePageSaw(page);
    assert.equal(await page.locator('#name').inputValue(), 'Ale');
  });

  test("the page's own handlers saw the same events, cancelled the same way, in the same order", () => {
    assert.ok(plain.seen.length > 50, `the page logged ${plain.seen.length} events`);
    assert.ok(plain.seen.some((/** @type {import('../types.mjs').Json} */ line) => line === 'bubble click go prevented=true trusted=true'), 'the page cancelled its link itself');
    assert.deepEqual(recorded.seen, plain.seen);
  });

  test('the DOM changed only as the page changed it, and the layout is the same', () => {
    assert.ok(plain.mutations.includes('childList menu-area  +1 -0'), `the page opened its menu: ${plain.mutations.join(' | ')}`);
    assert.ok(plain.mutations.includes('childList count  +1 -1'), `the page counted the click: ${plain.mutations.join(' | ')}`);
    assert.deepEqual(recorded.mutations, plain.mutations);
    assert.deepEqual(recorded.layout, plain.layout);
  });

  test('meanwhile the session recorded each action, with the outcome the page allowed', async () => {
    const steps = await waitForSteps(extPage, runId, 8);
    assert.deepEqual(
      steps.map((/** @type {import('../types.mjs').Json} */ s) => s.action?.text.replace(/\[\d+\]/, '[ID]') ?? s.result.error),
      ['type [ID] [Ale] [0]', 'press [Tab]', 'type [ID] [Large] [0]', 'click [ID]', 'click [ID]', 'click [ID]', 'hover [ID]', 'scroll [down]'],
    );
    assert.deepEqual(
      steps.slice(0, 7).filter((/** @type {import('../types.mjs').Json} */ s) => s.action.text.includes('[')).map((/** @type {import('../types.mjs').Json} */ s) => elementOf(s.observation.text, s.action.text)),
      ["textbox 'Name'", null, "combobox 'Size'", "link 'Go (the page cancels it)'", "button 'Count 0'", "heading 'Handlers'", "button 'Menu'"],
    );
    await sendOk(extPage, 'humanFinish', { runId, answer: null });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
