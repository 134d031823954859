// Typing and keys: a framework-controlled input, type + Enter submitting a GET form,
// select, checkbox, contenteditable, key combos, scrolling.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementRef, startSession, textOf, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('typing, keys and scrolling', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;

  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element]
   */
  const act = async (action, element) => {
    const reply = await sendOk(popup, 'act', { action, element });
    assert.equal(reply.result.error, undefined, `${action.kind}: ${JSON.stringify(reply.result)}`);
    return reply.result;
  };
  const goto = (/** @type {string} */ path) => act({ kind: 'goto', url: sites.url('widgets', path) });
  const pageAt = (/** @type {string} */ path) => waitForPage(ext.context, (u) => u === sites.url('widgets', path));

  before(async () => {
    sites = await startSites({ names: ['widgets'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await startSession(popup, [sites.url('widgets', '/form.html')]);
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('type into a framework-controlled input updates its state', async () => {
    const page = await pageAt('/form.html');
    const result = await act(
      { kind: 'type', id: 1, text: 'tokyo tower', press_enter: false },
      await elementRef(page, '#controlled'),
    );
    assert.equal(result.effect.typed.kind, 'input');
    assert.equal(result.effect.typed.path, 'keys');
    assert.equal(result.effect.typed.keys, 'tokyo tower'.length, 'one key press per character');
    // The component upper-cases its state and re-renders the input from it.
    assert.equal(await textOf(page, '#controlled-state'), 'state: TOKYO TOWER');
    assert.equal(await page.inputValue('#controlled'), 'TOKYO TOWER');
  });

  test('type again replaces the text: the component sees the field emptied, then the keys', async () => {
    const page = await pageAt('/form.html');
    const result = await act(
      { kind: 'type', id: 1, text: 'Osaka', press_enter: false },
      await elementRef(page, '#controlled'),
    );
    assert.equal(result.effect.typed.cleared, true);
    assert.equal(result.effect.typed.value, 'OSAKA');
    assert.equal(await textOf(page, '#controlled-state'), 'state: OSAKA');
  });

  test('type chooses a select option by visible text, then by value', async () => {
    const page = await pageAt('/form.html');
    const colour = await elementRef(page, '#colour');
    await act({ kind: 'type', id: 2, text: 'Blue', press_enter: false }, colour);
    assert.equal(await textOf(page, '#colour-state'), 'colour: b');
    await act({ kind: 'type', id: 2, text: 'g', press_enter: false }, colour);
    assert.equal(await textOf(page, '#colour-state'), 'colour: g');
  });

  test('a select option that does not exist is a step error listing the options', async () => {
    const page = await pageAt('/form.html');
    const reply = await sendOk(popup, 'act', {
      action: { kind: 'type', id: 2, text: 'Purple', press_enter: false },
      element: await elementRef(page, '#colour'),
    });
    assert.match(reply.result.error, /no option "Purple".*"Red", "Green", "Blue"/);
  });

  test('click toggles a checkbox; type sets it explicitly', async () => {
    const page = await pageAt('/form.html');
    const agree = await elementRef(page, '#agree');
    await act({ kind: 'click', id: 3 }, agree);
    assert.equal(await textOf(page, '#agree-state'), 'agree: true');
    await act({ kind: 'type', id: 3, text: 'false', press_enter: false }, agree);
    assert.equal(await textOf(page, '#agree-state'), 'agree: false');
  });

  test('a field that cannot take the focus is a step error, and nothing is typed', async () => {
    const page = await pageAt('/form.html');
    const reply = await sendOk(popup, 'act', {
      action: { kind: 'type', id: 6, text: 'changed', press_enter: false },
      element: await elementRef(page, '#closed'),
    });
    assert.match(reply.result.error, /<input>.* did not take the focus \(disabled, or another element grabs it\); nothing was typed/);
    assert.equal(await page.inputValue('#closed'), 'fixed');
  });

  test('type replaces the text of a contenteditable with trusted input', async () => {
    const page = await pageAt('/form.html');
    const result = await act(
      { kind: 'type', id: 4, text: 'new words', press_enter: false },
      await elementRef(page, '#editor'),
    );
    assert.equal(result.effect.typed.kind, 'contenteditable');
    assert.equal(result.effect.typed.path, 'keys');
    assert.equal(result.effect.typed.cleared, true, 'the old text was there to clear');
    assert.equal(await textOf(page, '#editor'), 'new words');
    assert.equal(await textOf(page, '#editor-state'), 'editor: new words');
  });

  test('type with Enter submits a GET search form', async () => {
    await goto('/search.html');
    const page = await pageAt('/search.html');
    const result = await act({ kind: 'type', id: 5, text: 'red tower', press_enter: true }, await elementRef(page, '#q'));
    assert.ok(result.settle.waitedFor.includes('navigation'), JSON.stringify(result.settle));
    const results = await pageAt('/results.html?q=red+tower');
    assert.equal(await textOf(results, '#query'), 'query: red tower');
  });

  test('press sends a trusted key combination', async () => {
    await goto('/index.html');
    const page = await pageAt('/index.html');
    const result = await act({ kind: 'press', key_comb: 'Control+k' });
    assert.deepEqual(result.effect.pressed, { modifiers: ['Control'], key: 'k' });
    assert.equal(await textOf(page, '#keys-state'), 'Control+k pressed');
  });

  test('an unknown key is a step error', async () => {
    const reply = await sendOk(popup, 'act', { action: { kind: 'press', key_comb: 'Control+Banana' } });
    assert.match(reply.result.error, /unknown key "Banana"/);
  });

  test('scroll moves the viewport down one screen and back up', async () => {
    await goto('/long.html');
    const page = await pageAt('/long.html');
    const height = await page.evaluate(() => innerHeight);
    const down = await act({ kind: 'scroll', direction: 'down' });
    assert.equal(down.effect.moved, true);
    assert.equal(await page.evaluate(() => scrollY), height);
    await act({ kind: 'scroll', direction: 'up' });
    assert.equal(await page.evaluate(() => scrollY), 0);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
