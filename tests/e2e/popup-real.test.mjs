// The toolbar popup as a person uses it: opened by chrome.action.openPopup() over a
// normal tab, Run pressed once with a trusted click. Before, the first Run opened the
// side panel, Chrome closed the popup on the focus change, and START_RUN was never
// sent ("No run yet"); tests that opened popup.html as a tab could not see it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { docImagePath } from './paths.mjs';
import { openRealPopup } from './real-popup.mjs';
import { threeHopTask, waitForRunEnd } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

/** @typedef {import('../types.mjs').Json} Json */

describe('the real toolbar popup', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let files;
  /** @type {Awaited<ReturnType<typeof openRealPopup>>} */ let popup;

  const runIds = async () => (await sendOk(page, 'listRuns')).runs.map((/** @type {import('../types.mjs').Json} */ r) => r.id).sort();
  const currentRun = () => page.evaluate(async () => /** @type {import('../types.mjs').Json} */ (/** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current'])) ?? null);

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    // An extension page to read the store from; the popup opens over a normal tab.
    page = await ext.openExtensionPage('runs.html');
    files = mkdtempSync(join(tmpdir(), 'hopbench-popup-'));
    writeFileSync(join(files, 'three-hops.json'), threeHopTask(sites));
    writeFileSync(join(files, 'broken.json'), '{"id": "x", "intent": ');
    // A task saved by "New task by doing" (its id says so), imported back.
    writeFileSync(join(files, 'authored.json'), JSON.stringify({ ...JSON.parse(threeHopTask(sites)), id: 'authored/read-about-the-tower' }));
  });

  after(async () => {
    await popup?.close();
    await ext?.close();
    await sites?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  const openPopup = async () => {
    const tab = await ext.openPage(sites.url('wiki', '/index.html'));
    popup = await openRealPopup(ext, tab);
    return popup;
  };

  test('a fresh profile offers the replay agent and says what a model run needs', async () => {
    await openPopup();
    await popup.waitFor('document.querySelector("#task").options.length > 0', 'the task list');
    assert.equal(await popup.evaluate('document.querySelector("#agent").value'), 'replay', 'no model is set, so Model is not the default');
    await popup.select('#agent', 'model');
    const noteText = await popup.evaluate('document.querySelector("#agent-note").textContent');
    assert.match(noteText, /No model is ready .*api\.openai\.com needs an API key.*Settings, or choose Replay/);
    assert.equal(await popup.evaluate('document.querySelector("#run").disabled'), true, 'Run cannot start a model run without a model');
    await popup.select('#agent', 'replay');
    await popup.close();
  });

  test('a bad file is refused at import with the file and the problem; a good one is listed with its overview', async () => {
    await openPopup();
    await popup.setFiles('#import-files', [join(files, 'broken.json'), join(files, 'three-hops.json')]);
    const note = await popup.waitFor('document.querySelector("#task-note").textContent.includes("refused") && document.querySelector("#task-note").textContent', 'the import note');
    assert.match(note, /Imported 1 file\(s\); refused 1/);
    assert.match(note, /broken\.json.*(JSON|EOF|end)/i);
    const listed = await popup.evaluate('[...document.querySelectorAll("#task option")].map((o) => o.value)');
    assert.ok(listed.includes('imported:three-hops.json'), listed.join(', '));
    assert.ok(!listed.includes('imported:broken.json'), 'the refused file is not listed');
    assert.equal(await popup.evaluate('document.querySelector("#task").value'), 'imported:three-hops.json');
    const label = await popup.evaluate('document.querySelector("#task").selectedOptions[0].textContent');
    assert.match(label, /^Starting from the wiki, read the Tokyo Tower article.*· 3 hops · e2e\/three-hops$/);
    const facts = await popup.evaluate('document.querySelector("#task-facts").textContent');
    assert.match(facts, /^3 hops · 127\.0\.0\.1:\d+$/);
    // Bundled, imported and authored tasks are listed apart.
    await popup.setFiles('#import-files', [join(files, 'authored.json')]);
    await popup.waitFor('document.querySelector("#task").value === "imported:authored.json"', 'the authored task imported');
    const groups = await popup.evaluate('[...document.querySelectorAll("#task optgroup")].map((g) => [g.label, [...g.querySelectorAll("option")].map((o) => o.value).filter((v) => v.startsWith("imported:"))])');
    assert.deepEqual(groups.map((/** @type {Json} */ g) => g[0].replace(/ \(\d+\)$/, '')), ['Bundled', 'Imported', 'Authored by you']);
    assert.deepEqual(groups[1][1], ['imported:three-hops.json']);
    assert.deepEqual(groups[2], ['Authored by you (1)', ['imported:authored.json']]);
    await popup.select('#task', 'imported:three-hops.json');
    await popup.close();
  });

  test('the search finds a task by a word of its intent and by its id; Run starts that one, once', async () => {
    await openPopup();
    await popup.waitFor('document.querySelector("#task").options.length > 40', 'the bundled and imported tasks');
    const all = await popup.evaluate('document.querySelector("#task").options.length');
    assert.equal(await popup.evaluate('document.querySelector("#task-count").textContent'), `${all} tasks`);
    // A word of an intent, typed as a person types it: only tasks whose intent, id or
    // file has it stay listed, each labelled with its id.
    await popup.type('#task-search', 'tower');
    const byWord = await popup.evaluate('[...document.querySelectorAll("#task option")].map((o) => ({ value: o.value, label: o.textContent, title: o.title }))');
    assert.ok(byWord.length >= 1 && byWord.length < all, `a few tasks match: ${byWord.length} of ${all}`);
    assert.ok(byWord.every((/** @type {Json} */ o) => o.title.toLowerCase().includes('tower')), JSON.stringify(byWord));
    assert.ok(byWord.some((/** @type {Json} */ o) => o.value === 'imported:three-hops.json' && o.label.endsWith(' · e2e/three-hops')), JSON.stringify(byWord));
    assert.match(await popup.evaluate('document.querySelector("#task-count").textContent'), new RegExp(`^${byWord.length} of ${all} tasks match$`));
    // A bundled task's id: that one task, chosen.
    await popup.type('#task-search', 'sb-01-beanie-colour');
    assert.deepEqual(await popup.evaluate('[...document.querySelectorAll("#task option")].map((o) => o.value)'), ['bundled:sb-01-beanie-colour.json']);
    // The imported task's id, then Run: that task runs, once.
    await popup.type('#task-search', 'e2e/three-hops');
    await popup.waitFor('document.querySelector("#task").value === "imported:three-hops.json" && !document.querySelector("#run").disabled', 'the found task chosen and Run ready');
    const before = await runIds();
    await popup.click('#run');
    let started = [];
    const deadline = Date.now() + 15_000;
    while (started.length === 0 && Date.now() < deadline) {
      started = (await runIds()).filter((/** @type {Json} */ id) => !before.includes(id));
      if (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(started.length, 1, 'Run started one run');
    const run = await waitForRunEnd(page, started[0]);
    assert.equal(run.taskId, 'e2e/three-hops');
    assert.deepEqual((await runIds()).filter((/** @type {Json} */ id) => !before.includes(id)), started, 'still one run');
    // The next popup lists every task again, the found one still chosen.
    await popup.close();
    await openPopup();
    await popup.waitFor('document.querySelector("#task").value === "imported:three-hops.json"', 'the choice kept');
    assert.equal(await popup.evaluate('document.querySelector("#task").options.length'), all);
    await popup.close();
  });

  test('the first Run pressed in the real popup starts the run, which passes', async () => {
    const before = await runIds();
    await openPopup();
    await popup.waitFor('document.querySelector("#task").value === "imported:three-hops.json"', 'the chosen task to be restored');
    await popup.click('#run');
    const deadline = Date.now() + 15_000;
    let runId = null;
    while (!runId && Date.now() < deadline) {
      const id = await currentRun();
      if (id && !before.includes(id)) runId = id;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(runId, 'pressing Run once started a run');
    const run = await waitForRunEnd(page, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.equal(run.provider, 'replay');
    await popup.close();
  });

  test('choices persist: the next popup opens on the same task, agent and window option', async () => {
    await openPopup();
    await popup.waitFor('document.querySelector("#task").options.length > 0', 'the task list');
    await popup.evaluate('(() => { const c = document.querySelector("#keep-window"); c.click(); return c.checked; })()');
    await popup.close();
    await openPopup();
    await popup.waitFor('document.querySelector("#task").value === "imported:three-hops.json"', 'the task choice restored');
    assert.equal(await popup.evaluate('document.querySelector("#agent").value'), 'replay');
    assert.equal(await popup.evaluate('document.querySelector("#keep-window").checked'), true);
    await popup.evaluate('(() => { const c = document.querySelector("#keep-window"); c.click(); return c.checked; })()');
    // The launcher as a person sees it after a few runs: the last ones with their outcome.
    await popup.waitFor('!document.querySelector("#recent").hidden && document.querySelectorAll("#recent-runs li").length > 0', 'the recent runs');
    await popup.screenshot(docImagePath('popup.png'));
    await popup.close();
  });

  test('a choice made in the popup is the open side panel\'s too, on New run', async () => {
    // The panel was opened first and showed the last run; the person then picks
    // another agent and task in the popup, and comes back to the panel for a new run.
    const panel = await ext.openExtensionPage('sidepanel.html');
    await panel.waitForFunction(() => /** @type {HTMLSelectElement} */ (document.getElementById('task')).options.length > 40);
    const agentBefore = await panel.locator('#agent').inputValue();
    const other = agentBefore === 'replay' ? 'model' : 'replay';
    await openPopup();
    await popup.waitFor('document.querySelector("#task").options.length > 40', 'the task list');
    assert.equal(await popup.select('#agent', other), other);
    await popup.type('#task-search', 'sb-01-beanie-colour');
    await popup.waitFor('document.querySelector("#task").value === "bundled:sb-01-beanie-colour.json"', 'the found task chosen');
    await popup.close();
    if (await panel.locator('#new-run').isVisible()) await panel.locator('#new-run').click();
    await panel.waitForFunction((want) => /** @type {HTMLSelectElement} */ (document.getElementById('agent')).value === want, other, { timeout: 5000 });
    assert.equal(await panel.locator('#task').inputValue(), 'bundled:sb-01-beanie-colour.json');
    assert.match(await panel.locator('#task-intent').textContent() ?? '', /beanie/i);
    // And back: the popup's Replay and three-hops task, for the tests that follow.
    await openPopup();
    await popup.waitFor('document.querySelector("#task").options.length > 40', 'the task list');
    await popup.select('#agent', agentBefore);
    await popup.select('#task', 'imported:three-hops.json');
    await popup.close();
    await panel.waitForFunction((want) => /** @type {HTMLSelectElement} */ (document.getElementById('agent')).value === want, agentBefore, { timeout: 5000 });
    assert.equal(await panel.locator('#task').inputValue(), 'imported:three-hops.json');
    await panel.close();
  });

  test('a double click on Run starts one run', async () => {
    const before = await runIds();
    await openPopup();
    await popup.waitFor('document.querySelector("#task").value === "imported:three-hops.json" && !document.querySelector("#run").disabled', 'Run to be ready');
    await popup.click('#run', { clickCount: 2 });
    const deadline = Date.now() + 15_000;
    let started = [];
    while (started.length === 0 && Date.now() < deadline) {
      started = (await runIds()).filter((/** @type {import('../types.mjs').Json} */ id) => !before.includes(id));
      if (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(started.length, 1, 'one run started');
    await waitForRunEnd(page, started[0]);
    // A second run would have been listed by now: both would start within the click.
    const after = (await runIds()).filter((/** @type {import('../types.mjs').Json} */ id) => !before.includes(id));
    assert.deepEqual(after, started, 'still exactly one new run');
  });
});
