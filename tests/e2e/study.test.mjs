// Study mode, as an experimenter and a participant use it: the participant id, two
// task files, a shuffled order; one session after another with a break (the page
// closed and opened again) between them; the export holds both runs tagged with the
// study, and imports into a run folder the report reads.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importExports } from '../../runner/import-exports.mjs';
import { seedOf, studyOrder } from '../../extension/study-order.js';
import { launchExtension } from '../../runner/driver.mjs';
import { docImagePath } from './paths.mjs';
import { downloadedText } from './secret-scan.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

const TASK_FILE = new URL('./tasks/spa-filters-and-routes.json', import.meta.url);
/** 40 characters, none of them the answer the task checks. */
const TYPED_ANSWER = 'About fifteen minutes, by the harbor way';

describe('a study: one participant, two tasks, a break', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let study;
  /** @type {{ name: string, text: string }[]} */ let files;
  /** @type {string} */ let dir;

  const waitStatus = (/** @type {string} */ prefix) => study.waitForFunction((p) => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith(p), prefix, { timeout: 20_000 });

  before(async () => {
    sites = await startSites({ names: ['spa'] });
    ext = await launchExtension();
    const text = sites.fill(readFileSync(TASK_FILE, 'utf8'));
    files = ['a', 'b'].map((name) => ({ name: `${name}.json`, text: JSON.stringify({ ...JSON.parse(text), id: `e2e-study/${name}`, intent: `Task ${name}: ${JSON.parse(text).intent}` }) }));
    study = await ext.openExtensionPage('study.html');
    await study.setViewportSize({ width: 480, height: 720 });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-study-'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the experimenter sets up the participant, the tasks and a shuffled order', async () => {
    await study.locator('#participant').fill('P07');
    await study.locator('#study-tasks').setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'application/json', buffer: Buffer.from(f.text) })));
    await study.waitForFunction(() => document.querySelectorAll('#task-list li').length === 2);
    await study.locator('#order').selectOption('shuffled');
    await study.locator('#begin-study').click();
    await waitStatus('Open the first task');
    assert.match(/** @type {string} */ (await study.locator('#position').textContent()), /^Task 1 of 2 · P07$/);
  });

  test('the first session: open, Start, answer; then a break with the page closed', async () => {
    await study.locator('#begin-task').click();
    await waitForPage(ext.context, (url) => url.startsWith(sites.origin('spa')));
    await waitStatus('The task is open');
    await study.locator('#start').click();
    await waitStatus('Recording');
    // Typed as a person types, 8 characters a second (the page redraws meanwhile).
    await study.locator('#answer').click();
    await study.keyboard.type(TYPED_ANSWER, { delay: 125 });
    assert.equal(await study.locator('#answer').inputValue(), TYPED_ANSWER);
    await study.locator('#answer-submit').click();
    await waitStatus('A break, if wanted');
    await study.screenshot({ path: docImagePath('study-break.png') });
    await study.close();
    study = await ext.openExtensionPage('study.html');
    await waitStatus('A break, if wanted');
    assert.match(/** @type {string} */ (await study.locator('#position').textContent()), /^Task 2 of 2 · P07$/);
  });

  test('the second session ends with a give-up, and the study is done', async () => {
    await study.locator('#begin-task').click();
    await waitStatus('The task is open');
    await study.locator('#start').click();
    await waitStatus('Recording');
    await study.locator('#give-up').click();
    await waitStatus('Study done: 2 tasks by P07.');
  });

  test('the export holds both runs tagged with the study, in the recorded order, and imports', async () => {
    const exported = await downloadedText(study, '#export');
    const file = JSON.parse(exported.text);
    assert.equal(file.format, 'hopbench-study');
    assert.equal(file.study.participant, 'P07');
    assert.equal(file.study.order, 'shuffled');
    assert.equal(file.study.seed, seedOf(`${file.study.id}:P07`));
    // The order is the seeded shuffle of the files as chosen: the same for P07 every time.
    assert.deepEqual(file.study.tasks, studyOrder(['a.json', 'b.json'], 'shuffled', file.study.seed));
    assert.deepEqual(file.runs.map((/** @type {import('../types.mjs').Json} */ r) => [r.run.provider, r.run.study.participant, r.run.study.position]), [
      ['human', 'P07', 1],
      ['human', 'P07', 2],
    ]);
    // Every keystroke of the typed answer is in the record (the study's first task).
    assert.equal(file.runs[0].run.answer, TYPED_ANSWER);
    assert.equal(file.runs[1].run.answer, null);
    assert.deepEqual(file.runs.map((/** @type {import('../types.mjs').Json} */ r) => r.run.taskId), file.study.tasks.map((/** @type {import('../types.mjs').Json} */ f) => `e2e-study/${f.replace('.json', '')}`));
    const path = join(dir, exported.name);
    writeFileSync(path, exported.text);
    const out = join(dir, 'people');
    assert.deepEqual(importExports([path], out), { runs: 2, provider: 'human' });
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // A wrong answer and a give-up: both failed the task, neither is an error.
    assert.deepEqual(lines.map((l) => l.verdict), ['FAIL', 'FAIL']);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
