// Observation through the extension: the worker attaches to a real tab over CDP and
// the wasm core renders what a model reads. Checks what a person would check: the
// lines on screen are there, those below the fold are not, frame content shows up
// under its iframe, and ids do not change between two looks at the same page.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, observeThroughWorker, tabIdOf } from '../../runner/driver.mjs';
import { lineWith } from './observe-helpers.mjs';
import { startSites } from './sites.mjs';

describe('observation text', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {Awaited<ReturnType<typeof tabIdOf>>} */ let tabId;
  /** @type {Awaited<ReturnType<typeof tabIdOf>>} */ let kiwixTab;

  before(async () => {
    sites = await startSites({ names: ['obs-page', 'obs-kiwix'] });
    ext = await launchExtension();
    const page = await ext.openPage(sites.url('obs-page', '/'));
    const kiwix = await ext.openPage(sites.url('obs-kiwix', '/'));
    extPage = await ext.openExtensionPage('popup.html');
    tabId = await tabIdOf(extPage, page.url());
    kiwixTab = await tabIdOf(extPage, kiwix.url());
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('lines in the viewport are present, those below the fold are not', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text' });
    assert.equal(obs.url, sites.url('obs-page', '/'));
    for (const expected of [
      "RootWebArea 'Trip planner'",
      "heading 'Plan your trip'",
      "link 'About us'",
      "textbox 'Destination city'",
      "checkbox 'Flexible dates' checked: true",
      "button 'Search trips'",
      "image 'Red square' url: ",
      "button 'Shadow button'",
    ]) {
      assert.ok(lineWith(obs.text, expected), `missing ${expected} in\n${obs.text}`);
    }
    for (const absent of ['Far below heading', 'Deep link far below', 'Green far image']) {
      assert.ok(!obs.text.includes(absent), `${absent} is below the fold:\n${obs.text}`);
    }
    assert.match(obs.text.split('\n')[0], /Tab \d+ \(current\): Trip planner/);
  });

  test('the whole-page option shows content below the fold', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text', wholePage: true });
    assert.ok(lineWith(obs.text, "heading 'Far below heading'"), obs.text);
    assert.ok(lineWith(obs.text, "link 'Deep link far below'"), obs.text);
  });

  test('same-origin and cross-site iframe content appears under its iframe', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text' });
    for (const [iframe, inner] of [
      ["Iframe 'Same-origin frame'", "heading 'Inside same-origin frame'"],
      ["Iframe 'Cross-site frame'", "heading 'Inside cross-site frame'"],
      ["Iframe 'Cross-site frame'", "link 'Cross frame link'"],
    ]) {
      const frame = lineWith(obs.text, iframe);
      const content = lineWith(obs.text, inner);
      assert.ok(frame && content, `missing ${iframe} or ${inner} in\n${obs.text}`);
      assert.ok(content.depth > frame.depth, `${inner} is not nested under ${iframe}:\n${obs.text}`);
    }
    assert.ok(obs.stats.targets >= 2, `the cross-site frame is its own target: ${JSON.stringify(obs.stats)}`);
  });

  test('the Kiwix-style viewer shows the article inside its out-of-process iframe', async () => {
    const obs = await observe(extPage, kiwixTab, { mode: 'text' });
    const frame = lineWith(obs.text, "Iframe 'Article'");
    const title = lineWith(obs.text, "heading 'Tokyo'");
    assert.ok(frame && title && title.depth > frame.depth, obs.text);
    assert.ok(lineWith(obs.text, "link 'Japan'"), obs.text);
    assert.ok(!obs.text.includes('Far article section'), obs.text);
  });

  test('ids stay the same across two observations of an unchanged page', async () => {
    const first = await observe(extPage, tabId, { mode: 'text' });
    const second = await observe(extPage, tabId, { mode: 'text' });
    assert.equal(second.text, first.text);
    const link = /** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(first.text, "link 'Cross frame link'"));
    assert.ok(link.id > 0);
  });

  test('an id resolves to its element, in the page and in an out-of-process frame', async () => {
    const obs = await observe(extPage, tabId, { mode: 'text' });
    /** @param {number} id */
    const resolve = (id) =>
      extPage.evaluate(
        async ([tab, elementId]) => {
          const { default: init, resolve_element: resolveElement } = /** @type {import('../types.mjs').Json} (the wasm core's glue, built into dist/pkg) */ (await import(/** @type {string} */ ('./pkg/hopbench.js')));
          await init();
          const key = `observe.registry.${tab}`;
          const registry = (await chrome.storage.session.get(key))[key];
          return resolveElement(registry, elementId);
        },
        [tabId, id],
      );
    // Ask Chrome what node the reference points at, on the right session. The
    // extension left this tab (it is in no session) once the observation was taken, so
    // the check attaches again; cdp/cdp.js's listener records the frame sessions it gets.
    /** @param {import('../types.mjs').Json} element the element reference resolve_element gave */
    const describe = (element) =>
      ext.worker.evaluate(
        async ([tab, el]) => {
          await chrome.debugger.attach({ tabId: tab }, '1.3').catch((error) => {
            if (!/already attached/i.test(/** @type {Error} */ (error).message)) throw error;
          });
          await chrome.debugger.sendCommand({ tabId: tab }, 'Target.setAutoAttach', {
            autoAttach: true,
            waitForDebuggerOnStart: false,
            flatten: true,
          });
          const key = `cdp.children.${tab}`;
          /** @type {{ sessionId: string } | undefined} */
          let child;
          for (let i = 0; i < 100 && el.targetId && !child; i += 1) {
            /** @type {{ sessionId: string, targetId: string }[]} */
            const children = /** @type {{ sessionId: string, targetId: string }[] | undefined} */ ((await chrome.storage.session.get(key))[key]) ?? [];
            child = children.find((c) => c.targetId === el.targetId);
            if (!child) await new Promise((resolve) => setTimeout(resolve, 50));
          }
          // A frame's element: its session was recorded above (or the test fails here).
          const debuggee = el.targetId ? { tabId: tab, sessionId: /** @type {{ sessionId: string }} */ (child).sessionId } : { tabId: tab };
          const { node } = /** @type {{ node: { nodeName: string, attributes: string[] } }} */ (
            await chrome.debugger.sendCommand(debuggee, 'DOM.describeNode', { backendNodeId: el.backendNodeId })
          );
          return { name: node.nodeName, attributes: node.attributes };
        },
        [tabId, element],
      );
    const search = await resolve(/** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(obs.text, "button 'Search trips'")).id);
    assert.equal(search.targetId, null);
    assert.equal((await describe(search)).name, 'BUTTON');
    const crossLink = await resolve(/** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(obs.text, "link 'Cross frame link'")).id);
    assert.equal(typeof crossLink.targetId, 'string');
    const node = await describe(crossLink);
    assert.equal(node.name, 'A');
    assert.ok(node.attributes.includes('/cross-link.html'), JSON.stringify(node.attributes));
    await assert.rejects(resolve(999_999), /no element \[999999\]/);
  });

  test('after scrolling, the far section is shown and keeps its whole-page ids', async () => {
    // The test site's page, opened in `before`.
    const page = /** @type {import('../types.mjs').Page} */ (ext.context.pages().find((p) => p.url() === sites.url('obs-page', '/')));
    const whole = await observe(extPage, tabId, { mode: 'text', wholePage: true });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    try {
      const scrolled = await observe(extPage, tabId, { mode: 'text' });
      const far = lineWith(scrolled.text, "heading 'Far below heading'");
      assert.ok(far, scrolled.text);
      assert.equal(far.id, /** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(whole.text, "heading 'Far below heading'")).id);
      assert.ok(!scrolled.text.includes("heading 'Plan your trip'"), scrolled.text);
    } finally {
      await page.evaluate(() => window.scrollTo(0, 0));
    }
  });

  test('bad options get an error reply naming the problem', async () => {
    const reply = await observeThroughWorker(extPage, tabId, { mode: 'video' });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /mode must be one of text, text\+images, text\+screenshot, som/);
    const malformed = await observeThroughWorker(extPage, tabId, { colour: 'red' });
    assert.deepEqual(malformed, { ok: false, error: 'malformed page-to-worker/observe-tab message' });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });
});
