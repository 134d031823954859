// The recorder's page script and its CDP binding live and die together. Two orders
// that once broke a person's page and lost what they did:
//
// - A document that runs the script before the binding reaches it (the binding is
//   added to a world's contexts by the worker, and may come late): the script must
//   record nothing and throw nothing into the page, then record from the moment the
//   binding arrives. Shown here in a plain tab, with the script evaluated by hand and
//   the binding exposed later, so the order is certain.
// - A worker restarted in the middle of a person's session learns the recorder again
//   from the page's next report. Chrome forgets a session's bindings on
//   Runtime.disable: re-learning must not cost the binding, or every document the
//   person opens afterwards runs the script without it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { RECORDER_BINDING, RECORDER_SOURCE } from '../../extension/worker/human/recorder-page.js';
import { person, stepsOf, waitForSteps } from './human-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';
import { workerControl } from './worker-control.mjs';

const pageErrors = (/** @type {import('../types.mjs').Extension} */ ext) => ext.errors.filter((e) => e.kind === 'pageerror');

describe('the recorder in a document the binding reaches late', { timeout: 60_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {{ kind: string }[]} */ const reports = [];

  before(async () => {
    sites = await startSites({ names: ['handlers'] });
    ext = await launchExtension();
    page = await ext.openPage(sites.url('handlers', '/index.html'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('without the binding the script installs, and the person clicking and typing meets no error', async () => {
    assert.equal(await page.evaluate(RECORDER_SOURCE), 'installed');
    const who = person(page);
    await who.click('#count');
    await who.type('#name', 'Ale');
    await who.press('Tab');
    assert.deepEqual(pageErrors(ext), [], ext.describeErrors());
    assert.equal(await page.locator('#name').inputValue(), 'Ale');
  });

  test('once the binding arrives, the script announces itself and records what follows', async () => {
    await page.exposeBinding(RECORDER_BINDING, (_source, /** @type {string} */ payload) => {
      reports.push(JSON.parse(payload));
    });
    // The worker evaluates the script again after adding the binding: it is there already.
    assert.equal(await page.evaluate(RECORDER_SOURCE), 'present');
    await person(page).click('#count');
    const deadline = Date.now() + 5_000;
    while (!reports.some((r) => r.kind === 'click') && Date.now() < deadline) await page.waitForTimeout(50);
    const kinds = reports.map((r) => r.kind).filter((k) => k !== 'dom');
    assert.deepEqual(kinds, ['ready', 'click'], JSON.stringify(reports));
    assert.deepEqual(pageErrors(ext), [], ext.describeErrors());
  });
});

describe("a person's session whose worker is restarted", { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let runId;

  before(async () => {
    sites = await startSites({ names: ['alpha', 'beta'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('before the restart, a click is recorded', async () => {
    const taskText = JSON.stringify({
      id: 'e2e/recorder-restart',
      intent: 'Go from Alpha to Beta and back.',
      start_urls: [sites.url('alpha', '/index.html')],
      hops: [{ description: 'Never reached', condition: { kind: 'url', op: 'contains', value: 'never-reached' } }],
    });
    ({ runId } = await sendOk(extPage, 'startHuman', { taskText, fileName: 'restart.json' }));
    page = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('alpha')));
    await sendOk(extPage, 'humanControl', { runId, command: 'start' });
    await person(page).click('h1');
    const steps = await waitForSteps(extPage, runId, 1);
    assert.equal(steps[0].action?.text.replace(/\[\d+\]/, '[ID]'), 'click [ID]');
  });

  test('after the restart, the person goes on to another page: it records and throws nothing', async () => {
    const worker = await workerControl(extPage);
    await worker.stop();
    // The person's next action wakes the worker, which learns the recorder again.
    await person(page).click('#to-beta');
    await page.waitForURL((url) => url.origin === sites.origin('beta'));
    await worker.waitUntilRunning();
    await person(page).click('h1');
    await person(page).click('a');
    await page.waitForURL((url) => url.origin === sites.origin('alpha'));
    const steps = await waitForSteps(extPage, runId, 4);
    assert.deepEqual(
      steps.map((/** @type {import('../types.mjs').Json} */ s) => s.action?.text.replace(/\[\d+\]/, '[ID]') ?? s.result.error),
      ['click [ID]', 'click [ID]', 'click [ID]', 'click [ID]'],
    );
    assert.deepEqual(pageErrors(ext), [], ext.describeErrors());
    await worker.detach();
  });

  test('the finished session has every step, and nothing logged an error', async () => {
    await sendOk(extPage, 'humanFinish', { runId, answer: null });
    assert.equal((await stepsOf(extPage, runId)).length, 4);
    // The test sites have no favicon: their 404s are the pages' own console errors.
    assert.deepEqual([...pageErrors(ext), ...ext.extensionErrors()], [], ext.describeErrors());
  });
});
