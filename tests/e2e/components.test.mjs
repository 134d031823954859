// A form built of web components, run from the real toolbar popup: a text field, a
// custom listbox and a submit button with an inline SVG icon, each in a shadow root of
// its own (the listbox's closed). Before, the agent typed and picked the option, but
// its click on the button failed three times ("found by the debugger but in no frame
// the extension can script": the content script's search through shadow roots threw
// on the icon's SVG element) and the run ended early.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { componentsAgent, componentsTask } from './components-form.mjs';
import { startFakeProviders } from './fake-providers.mjs';
import { runFileFromRealPopup } from './popup-run.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

describe('a web-components form, from the real popup', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let control;
  /** @type {Awaited<ReturnType<typeof startFakeProviders>>} */ let fake;
  /** @type {string} */ let dir;
  /** @type {string} */ let file;

  before(async () => {
    sites = await startSites({ names: ['components'] });
    fake = await startFakeProviders({ apiKey: null });
    ext = await launchExtension();
    control = await ext.openExtensionPage('runs.html');
    dir = mkdtempSync(join(tmpdir(), 'hopbench-components-'));
    file = join(dir, 'components.json');
    writeFileSync(file, JSON.stringify(componentsTask((path) => sites.url('components', path))));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * @param {string} agent
   * @returns {Promise<{ run: any, steps: any[] }>}
   */
  async function runOnce(agent) {
    const runId = await runFileFromRealPopup(ext, control, { file, overUrl: sites.url('components', '/sent.html'), agent });
    const run = await waitForRunEnd(control, runId, 90_000);
    const { trajectory } = await sendOk(control, 'exportRun', { runId });
    return { run, steps: trajectory.steps };
  }

  test('replay fills the field, picks from the closed listbox and sends with the icon button', async () => {
    const { run, steps } = await runOnce('replay');
    assert.equal(run.verdict?.passed, true, JSON.stringify({ run, errors: steps.map((s) => s.result?.error) }));
    assert.deepEqual(run.verdict.hop_steps, [4]);
    assert.deepEqual(steps.map((s) => s.result?.error ?? null), [null, null, null, null]);
  });

  test('a scripted model, reading the ids off its observations, does the same', async () => {
    await sendOk(control, 'saveSettings', {
      settings: { model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent' }, max_tries: 1 },
    });
    fake.reset();
    fake.script(...componentsAgent().map((text) => ({ text })));
    const { run, steps } = await runOnce('model');
    assert.equal(run.verdict?.passed, true, JSON.stringify({ run, errors: steps.map((s) => s.result?.error) }));
    assert.deepEqual(run.verdict.hop_steps, [4]);
    // The last observation before the click shows the city chosen in the closed root.
    assert.match(steps[3].observation.text, /combobox 'City'[^\n]*\n\s*\[\d+\] StaticText 'Lisbon'/);
  });
});
