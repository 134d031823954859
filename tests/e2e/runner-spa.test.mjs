// Acceptance through the headless runner (runner/run.mjs, as `./build.sh run` starts
// it): a task over the single-page test site whose hops are URLs the page makes itself
// (a pushState filter URL, then two #fragment routes, the last reached by typing into
// a suggestions box and pressing Enter) passes with the replay agent, each hop
// credited at the step that made it, and every observation shows the URL the previous
// step left (nothing stale after a pushState).
//
// The task file is tests/e2e/tasks/spa-filters-and-routes.json; its start URL names
// the site as {{origin:spa}}, filled in here with the port the site got.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

const TASK_FILE = new URL('./tasks/spa-filters-and-routes.json', import.meta.url);

describe('the runner on a single-page site', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;
  /** @type {string} */ let out;
  /** @type {import('../types.mjs').RunnerResult} */ let run;
  /** @type {import('../types.mjs').Json} the task file, parsed */ let task;

  before(async () => {
    sites = await startSites({ names: ['spa'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-spa-'));
    const tasksDir = join(dir, 'tasks');
    out = join(dir, 'out');
    mkdirSync(tasksDir);
    const text = sites.fill(readFileSync(TASK_FILE, 'utf8'));
    task = JSON.parse(text);
    writeFileSync(join(tasksDir, 'spa.json'), text);
    run = await runRunner(['--tasks', tasksDir, '--out', out, '--observation', 'text', '--task-timeout', '120']);
  });

  after(async () => {
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the replay passes with every hop credited at the step that made its URL', () => {
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', JSON.stringify(line));
    assert.equal(line.hops_completed, 3);
    // 1 city (pushState, no hop yet), 2 Music (pushState: hop 1), 3 Jazz Night
    // (#fragment: hop 2), 4 typed search + Enter (#fragment: hop 3), 5 stop.
    assert.deepEqual(line.hop_steps, [2, 3, 4]);
    assert.equal(line.steps, 5);
    assert.equal(line.error, null);
  });

  test('each observation shows the URL the previous step left', () => {
    const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem(task.id)}.json`), 'utf8'));
    const shown = '/?city=Paris&cat=music';
    assert.deepEqual(
      trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.observation.url),
      [
        sites.url('spa', '/'),
        sites.url('spa', '/?city=Paris'),
        sites.url('spa', shown),
        sites.url('spa', `${shown}#/event/42`),
        sites.url('spa', `${shown}#/event/23`),
      ],
    );
    assert.match(trajectory.steps[4].observation.text, /heading 'Taiko Drums'/);
  });
});
