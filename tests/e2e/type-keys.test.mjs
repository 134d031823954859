// `type` types as a person does, key by key (worker/act/keyboard.js), so a search box
// whose suggestions come from keystrokes behaves as it does for MMInA's Playwright
// `keyboard.type`: typed text + Enter opens the item, while a value put into the box
// + Enter lists full-text results (MediaWiki's search box does the same). The spa
// site's box (tests/e2e/sites/spa/search.js) mirrors that behaviour.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementRef, startSession, textOf, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('type as a person types', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let session;

  const spa = (/** @type {string} */ path) => sites.url('spa', path);
  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element]
   */
  const act = async (action, element) => {
    const reply = await sendOk(popup, 'act', { action, element });
    assert.equal(reply.result.error, undefined, JSON.stringify(reply.result));
    return reply.result;
  };

  before(async () => {
    sites = await startSites({ names: ['spa', 'widgets'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await startSession(popup, [spa('/')]);
    session = await waitForPage(ext.context, (u) => u === spa('/'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test("type + Enter lands where Playwright's keyboard.type + Enter lands: the item page", async () => {
    const result = await act(
      { kind: 'type', id: 5, text: 'Taiko Drums', press_enter: true },
      await elementRef(session, '#search'),
    );
    assert.equal(result.effect.typed.path, 'keys');
    assert.equal(session.url(), spa('/#/event/23'));
    assert.equal(await textOf(session, '#event-title'), 'Taiko Drums');

    // The same page outside the session, driven by Playwright as MMInA drives it.
    const playwright = await ext.openPage(spa('/'));
    await playwright.click('#search');
    await playwright.keyboard.type('Taiko Drums');
    await playwright.keyboard.press('Enter');
    await playwright.waitForURL(spa('/#/event/23'));
    assert.equal(new URL(playwright.url()).hash, new URL(session.url()).hash);
    await playwright.close();
  });

  test('putting the value into the box + Enter lists results instead (what type used to do)', async () => {
    const ways = {
      // Page script setting the property, then an input event.
      'value property': (/** @type {HTMLInputElement} */ el) => {
        el.value = 'Taiko Drums';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
      // The prototype's setter + a synthetic input event: hopbench's former `type`.
      'native setter': (/** @type {HTMLInputElement} */ el) => {
        // An input's value always has its accessor pair on the prototype.
        const { set } = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value'));
        /** @type {(this: HTMLInputElement, v: string) => void} */ (set).call(el, 'Taiko Drums');
        el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'Taiko Drums' }));
      },
    };
    for (const [name, fill] of Object.entries(ways)) {
      const page = await ext.openPage(spa('/'));
      await page.locator('#search').evaluate(fill);
      await page.focus('#search');
      await page.keyboard.press('Enter');
      await page.waitForURL(spa('/?q=Taiko+Drums'));
      assert.equal(await textOf(page, '#results-title'), 'Search results for "Taiko Drums"', name);
      assert.deepEqual(await page.locator('#results a').allTextContents(), ['Taiko Drums'], name);
      await page.close();
    }
  });

  test('a 40-character text is typed key by key, quickly (time in the diagnostics)', async (t) => {
    const text = 'Techno Club Night, Berlin: tickets 2024!';
    assert.equal(text.length, 40);
    const search = await elementRef(session, '#search');
    const times = [];
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      const result = await act({ kind: 'type', id: 5, text, press_enter: false }, search);
      const roundTrip = performance.now() - started;
      const { typed } = result.effect;
      assert.equal(typed.value, text);
      assert.equal(typed.keys, 40);
      assert.equal(typed.inserted, 0);
      times.push(`${typed.ms} ms (keys ${typed.keysMs} ms; round trip ${Math.round(roundTrip)} ms incl. settle ${result.settle.ms} ms)`);
    }
    t.diagnostic(`type of 40 characters, focus to last key: ${times.join(', ')}`);
  });

  test('characters no key types (é, 東京) are inserted as text between the key presses', async () => {
    const result = await act(
      { kind: 'type', id: 5, text: 'Café 東京', press_enter: false },
      await elementRef(session, '#search'),
    );
    assert.equal(result.effect.typed.value, 'Café 東京');
    assert.equal(result.effect.typed.keys, 4, 'C, a, f and the space are keys');
    assert.equal(result.effect.typed.inserted, 3, 'é, 東 and 京 are inserted');
  });

  test('suggestions appear from the keystrokes', async () => {
    await act({ kind: 'type', id: 5, text: 'Ta', press_enter: false }, await elementRef(session, '#search'));
    assert.deepEqual(await session.locator('#suggestions [role=option]').allTextContents(), ['Taiko Drums']);
  });

  test('fields inside frames, same-site and out-of-process, are typed into with keys', async () => {
    await act({ kind: 'goto', url: sites.url('widgets', '/frames.html') });
    const page = await waitForPage(ext.context, (u) => u === sites.url('widgets', '/frames.html'));
    const { session: info } = await sendOk(popup, 'getProgress');
    const { observation } = await sendOk(popup, 'observeTab', info.currentTabId, { mode: 'text' });
    const frameOf = (/** @type {string} */ host) => page.frames().find((f) => new URL(f.url()).hostname === host && f.url().endsWith('/frame-input.html'));
    for (const [name, host, text] of [['Same-site input', '127.0.0.1', 'Kyoto'], ['Cross-site input', 'localhost', 'Nara']]) {
      const id = new RegExp(`\\[(\\d+)\\] textbox '${name}'`).exec(observation.text)?.[1];
      assert.ok(id, `no textbox '${name}' in the observation:\n${observation.text}`);
      const reply = await sendOk(popup, 'act', { actionText: `type [${id}] [${text}] [0]` });
      assert.equal(reply.result.error, undefined, JSON.stringify(reply.result));
      assert.equal(reply.result.effect.typed.value, text, name);
      assert.equal(await /** @type {import('playwright-core').Frame} */ (frameOf(host)).locator('#frame-state').textContent(), `keys: ${text.length}, value: ${text}`, name);
    }
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
