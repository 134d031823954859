// A person's click right after a scroll brought its link into view, before the worker
// observed the page again: the link was in no observation yet, while the <main> around
// it was. The click was recorded against that ancestor ("Clicked main ''"): an action
// the person never took. Now a click is never put on an element the person did not
// click: the link is looked for itself, and when its page is gone before it could be
// observed, the step says so, naming the link.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { waitForSteps } from './human-helpers.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe("a person's click right after a scroll into view", { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;

  before(async () => {
    sites = await startSites({ names: ['widgets'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('is never recorded against the element around the link', async () => {
    const task = {
      id: 'e2e/scroll-click',
      intent: 'Follow the link at the bottom of the long page.',
      start_urls: [sites.url('widgets', '/long-main.html')],
      hops: [{ description: 'Follow the bottom link', condition: { kind: 'url', part: 'param', param: 'from', op: 'equals', value: 'bottom' } }],
    };
    const { runId } = await sendOk(extPage, 'startHuman', { taskText: JSON.stringify(task), fileName: 'scroll-click.json' });
    const page = await waitForPage(ext.context, (url) => url.endsWith('/long-main.html'));
    await sendOk(extPage, 'humanControl', { runId, command: 'start' });
    // Let the recorder observe the page as it opened (the link is far below the fold).
    await page.waitForTimeout(1500);
    const before = await sendOk(extPage, 'getRun', { runId, withSteps: true });
    assert.equal(before.steps.length, 0);
    // The page brings the link into view and the click comes at once: no observation
    // of the page after the scroll exists yet.
    const box = await page.evaluate(() => {
      const link = /** @type {HTMLElement} */ (document.getElementById('bottom-link'));
      link.scrollIntoView();
      const r = link.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.click(box.x, box.y);
    await page.waitForURL(/from=bottom/);
    const steps = await waitForSteps(extPage, runId, 1);
    const click = steps[0];
    const said = JSON.stringify({ action: click.action, words: click.words, result: click.result });
    if (click.action) {
      // Found (observed again in time): the link itself.
      assert.equal(click.words?.words, "Clicked link 'Bottom link'", said);
    } else {
      // Its page was gone first: no action, and the step names what was clicked.
      assert.match(String(click.result?.error), /^<a> "Bottom link" was not in any observation/, said);
    }
    assert.doesNotMatch(said, /Clicked main/);
    await sendOk(extPage, 'humanFinish', { runId, answer: 'N/A' });
    const run = await waitForRunEnd(extPage, runId);
    // The hop is the page the click led to, whatever the step could name.
    assert.deepEqual(run.verdict.hop_steps, [1], JSON.stringify(run.verdict));
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
