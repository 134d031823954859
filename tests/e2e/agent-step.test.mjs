// One agent step end to end, as the agent loop will drive it: observe the session tab,
// pick an `[id]` from the text, send the action as the model printed it. The core parses
// the text and the tab's id registry resolves `[id]` to the element.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, sendOk } from '../../runner/driver.mjs';
import { lineWith } from './observe-helpers.mjs';
import { taskText, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('agent step: action text with [id] from the observation', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {number} */ let tabId;
  /** @type {number} */ let followedLinkId;

  /** @param {string} actionText */
  const step = async (actionText) => (await sendOk(popup, 'act', { actionText })).result;

  before(async () => {
    sites = await startSites({ names: ['wiki'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    const started = await sendOk(popup, 'startSession', {
      taskText: taskText({
        id: 'e2e/agent-step',
        startUrls: [sites.url('wiki', '/index.html')],
        hops: [{ condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } }],
      }),
    });
    tabId = started.session.tabIds[0];
    await waitForPage(ext.context, (url) => url.endsWith('/index.html'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('the core validates action text through the wasm boundary', async () => {
    const reply = await sendOk(popup, 'coreCall', 'canonical_action', ['Click  [ 12 ]']);
    assert.equal(reply.value, 'click [12]');
  });

  test('unparseable output is a recorded no-op step with the parser\'s reason', async () => {
    const result = await step('clik [3]');
    assert.equal(result.effect, null);
    assert.match(result.error, /cannot parse the action "clik \[3\]".*click/);
  });

  test('an id the page never showed is a step error naming it', async () => {
    await observe(popup, tabId, { mode: 'text' });
    const result = await step('click [99999]');
    assert.equal(result.effect, null);
    assert.match(result.error, /no element \[99999\]/);
  });

  test('click [id] of the link the observation shows follows it and completes the hop', async () => {
    const { text } = await observe(popup, tabId, { mode: 'text' });
    const link = lineWith(text, "link 'Tokyo Tower'");
    assert.ok(link, `no Tokyo Tower link in:\n${text}`);
    followedLinkId = link.id;
    const result = await step(`click [${link.id}]`);
    assert.equal(result.error, undefined, JSON.stringify(result));
    const { progress } = await sendOk(popup, 'getProgress');
    assert.equal(progress.done, 1, JSON.stringify(progress));
    assert.equal(progress.at_end, true);
  });

  test('an id from the previous page is stale: the error names it, nothing is clicked', async () => {
    const { text } = await observe(popup, tabId, { mode: 'text' });
    const before = text;
    // The followed link's id is still in the registry, but its node went with its page.
    assert.ok(followedLinkId, 'the click test ran first');
    const stale = await step(`click [${followedLinkId}]`);
    assert.equal(stale.effect, null, JSON.stringify(stale));
    assert.match(stale.error, new RegExp(`element \\[${followedLinkId}\\]`));
    const after = (await observe(popup, tabId, { mode: 'text' })).text;
    assert.equal(after, before, 'the page changed after a refused click');
  });
});
