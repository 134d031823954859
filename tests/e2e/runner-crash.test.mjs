// Batch runs survive crashes (issue 16): bundled tasks replayed by the runner with
// `--parallel 2` against a sandbox of the test's own, while the test kills the browser
// process (SIGKILL, by the pid the runner prints) during two different tasks. Every
// task must end PASS; the two killed attempts are recorded as infrastructure errors
// with the steps they had recorded, recovered from the dead browser's profile; no
// other task is touched. The same when the extension's process is killed instead of
// the browser. Then resuming: a results file with 3 infrastructure errors
// (one written the way older runners wrote them), 2 FAIL and 3 PASS gets exactly
// those 3 run again by the same command.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { freePortBase, processRunning } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { readLines, runRunner, startRunner } from './runner-process.mjs';

// Eight of the longer bundled tasks (8-11 reference steps): a browser killed at step 2
// dies with most of its task still ahead.
const LONG = [
  'sb-28-nyc-sfo-book-cheapest', 'sb-31-paris-or-london-4-star', 'sb-35-london-barcelona-then-hotels',
  'sb-36-tokyo-food-evening', 'sb-37-seoul-sydney-tail-colour', 'sb-38-paris-cheaper-show',
  'sb-39-kimchi-video-then-shop', 'sb-40-rome-manual-car',
];
// One-hop tasks of 2-3 steps, for the resume test's hand-written lines.
const SHORT = [
  'sb-01-beanie-colour', 'sb-03-tower-height', 'sb-06-lumen-hybrid-colour', 'sb-09-quickest-korean-recipe',
  'sb-10-flamingo-video-views', 'sb-11-rome-best-restaurant', 'sb-12-sydney-daily-budget', 'sb-14-sandals-colour',
];

/**
 * Processes below `root` (Linux /proc).
 * @param {number} root
 * @returns {number[]}
 */
function descendants(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = readOr(`/proc/${name}/stat`);
    if (stat) parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  /** @param {number} pid */
  const below = (pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter(below);
}

const cmdline = (/** @type {number} */ pid) => readOr(`/proc/${pid}/cmdline`);

/**
 * A /proc file's text, or '' for a process that is gone.
 * @param {string} file
 */
function readOr(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const { code } = /** @type {NodeJS.ErrnoException} */ (error);
    if (code === 'ENOENT' || code === 'ESRCH') return '';
    throw error;
  }
}

/** @param {import('../types.mjs').Json[]} lines results.jsonl lines */
const byId = (lines) => {
  /** @type {Map<string, import('../types.mjs').Json[]>} */
  const map = new Map();
  for (const line of lines) map.set(line.id, [...(map.get(line.id) ?? []), line]);
  return map;
};

describe('crashes, retries and resuming', { timeout: 600_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {Awaited<ReturnType<typeof freePortBase>>} */ let base;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */ let sandbox;
  /** @type {string[]} */ const sandboxLines = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-crash-'));
    base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), (l) => sandboxLines.push(l), ['--port-base', String(base)]).catch((error) => {
      throw new Error(`${error.message}\n${sandboxLines.join('\n')}`);
    });
  });

  after(async () => {
    await sandbox?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('a browser killed during two tasks: both retried in a fresh browser, every task PASS', async () => {
    const tasksDir = join(dir, 'long');
    mkdirSync(tasksDir);
    const tasks = copyBundledTasks(LONG, tasksDir, base);
    const out = join(dir, 'out-crash');
    const pids = new Map(); // browser number -> pid
    const where = new Map(); // task id -> { browser, attempt }
    /** @type {{ id: string, pid: number }[]} */ const kills = []; // { id, pid }
    /** @param {string} line */
    const onLine = (line) => {
      const browser = /^browser (\d+) (?:started|relaunched) \(pid (\d+)\)$/.exec(line);
      if (browser) pids.set(browser[1], Number(browser[2]));
      const started = /^task +\d+\/\d+ (\S+) {2}started \(.*?(?:, attempt (\d+))?\) in browser (\d+)$/.exec(line);
      if (started) where.set(started[1], { browser: started[3], attempt: Number(started[2] ?? 1) });
      const step = /^task +\d+\/\d+ (\S+) {2}hop \d+\/\d+ {2}step (\d+)$/.exec(line);
      if (!step || Number(step[2]) < 2 || kills.length >= 2) return;
      const at = where.get(step[1]);
      const pid = pids.get(at?.browser);
      // A first attempt with two steps recorded, in a browser not killed before.
      if (at?.attempt !== 1 || !pid || kills.some((k) => k.id === step[1] || k.pid === pid)) return;
      kills.push({ id: step[1], pid });
      process.kill(pid, 'SIGKILL');
    };
    // A screenshot at every step: what a killed attempt had seen is checkable picture by picture.
    const args = ['--tasks', tasksDir, '--out', out, '--parallel', '2', '--task-timeout', '180', '--observation', 'text+screenshot'];
    const run = await startRunner(args, { onLine }).done;
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(kills.length, 2, `the test killed ${kills.length} browsers:\n${run.stdout}`);
    assert.notEqual(kills[0].id, kills[1].id);
    for (const { pid } of kills) assert.equal(processRunning(pid), false, `browser pid ${pid} still runs`);
    assert.equal(run.stdout.match(/^browser \d relaunched \(pid \d+\)$/gm)?.length, 2, run.stdout);

    const lines = byId(readLines(join(out, 'results.jsonl')));
    assert.deepEqual([...lines.keys()].sort(), tasks.map((t) => t.id).sort());
    const trajectory = (/** @type {string} */ stem) => JSON.parse(readFileSync(join(out, 'trajectories', `${stem}.json`), 'utf8'));
    for (const { id, pid } of kills) {
      const [crashed, retried, ...more] = /** @type {import('../types.mjs').Json[]} */ (lines.get(id));
      assert.equal(more.length, 0, JSON.stringify(lines.get(id)));
      assert.equal(crashed.verdict, 'ERROR', JSON.stringify(crashed));
      assert.equal(crashed.error_kind, 'infrastructure');
      assert.equal(crashed.attempt, 1);
      assert.match(crashed.error, new RegExp(`^the browser \\(pid ${pid}\\) died: killed, crashed or out of memory during the task; \\d+ recorded steps recovered from its profile$`));
      // The steps recorded before the kill, with their pictures, are kept.
      assert.ok(crashed.steps >= 2, JSON.stringify(crashed));
      const partial = trajectory(taskFileStem(id));
      assert.equal(partial.steps.length, crashed.steps);
      for (const step of partial.steps) {
        assert.ok(step.action?.text, `step ${step.step} of ${id} recovered without its action`);
        const file = partial.media[step.observation.screenshot]?.file;
        assert.ok(file && existsSync(join(out, 'trajectories', file)), `step ${step.step} of ${id}: no screenshot file`);
      }
      assert.equal(retried.verdict, 'PASS', JSON.stringify(retried));
      assert.deepEqual([retried.attempt, retried.error_kind], [2, null]);
      assert.equal(trajectory(`${taskFileStem(id)}.attempt-2`).steps.length, retried.steps);
      assert.match(run.stdout, new RegExp(`^task +\\d+/8 ${id} {2}ERROR \\(infrastructure\\) .*; retrying \\(attempt 2`, 'm'));
    }
    // No other task was affected: one first attempt each, PASS.
    for (const [id, attempts] of lines) {
      if (kills.some((k) => k.id === id)) continue;
      assert.deepEqual(attempts.map((/** @type {import('../types.mjs').Json} */ l) => [l.verdict, l.attempt, l.error_kind]), [['PASS', 1, null]], id);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.deepEqual(summary.counts, { tasks: 8, pass: 8, fail: 0, error: 0 });
    assert.deepEqual([summary.retries.tasks, summary.retries.infrastructure], [2, 2]);
    assert.match(run.stdout, /^8 tasks: 8 PASS, 0 FAIL, 0 ERROR\n2 tasks retried: 2 earlier attempts \(2 infrastructure errors\)/m);
  });

  test("the extension's process killed mid-task: the attempt is an infrastructure error, retried", async () => {
    const tasksDir = join(dir, 'extension');
    mkdirSync(tasksDir);
    const tasks = copyBundledTasks(LONG.slice(0, 2), tasksDir, base);
    const out = join(dir, 'out-extension');
    /** @type {number | null} */ let browserPid = null;
    /** @type {number | null} */ let killed = null;
    /** @param {string} line */
    const onLine = (line) => {
      const browser = /^browser 1 started \(pid (\d+)\)$/.exec(line);
      if (browser) browserPid = Number(browser[1]);
      const step = /^task +1\/2 (\S+) {2}hop \d+\/\d+ {2}step (\d+)$/.exec(line);
      if (!step || Number(step[2]) < 2 || killed !== null) return;
      // The extension's renderer: MV3 runs its service worker and its pages there.
      killed = descendants(/** @type {number} */ (browserPid)).find((pid) => cmdline(pid).includes('--extension-process')) ?? 0;
      if (killed) process.kill(killed, 'SIGKILL');
    };
    const run = await startRunner(['--tasks', tasksDir, '--out', out], { onLine }).done;
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.ok(Number(killed) > 0, `no extension process found under browser ${browserPid}`);
    const lines = byId(readLines(join(out, 'results.jsonl')));
    const [crashed, retried, ...more] = /** @type {import('../types.mjs').Json[]} */ (lines.get(tasks[0].id));
    assert.equal(more.length, 0);
    assert.deepEqual([crashed.verdict, crashed.error_kind, crashed.attempt], ['ERROR', 'infrastructure', 1], JSON.stringify(crashed));
    assert.match(crashed.error, /^the extension's process crashed \(its service worker and pages went with it\) during the task; \d+ recorded steps? recovered from its profile$/);
    assert.ok(crashed.steps >= 2, JSON.stringify(crashed));
    assert.deepEqual([retried.verdict, retried.attempt], ['PASS', 2]);
    assert.deepEqual(/** @type {import('../types.mjs').Json[]} */ (lines.get(tasks[1].id)).map((/** @type {import('../types.mjs').Json} */ l) => [l.verdict, l.attempt]), [['PASS', 1]]);
  });

  test('a browser that dies 3 times in a row stops the batch with a clear message; the same command resumes', async () => {
    const tasksDir = join(dir, 'deaths');
    mkdirSync(tasksDir);
    const tasks = copyBundledTasks(LONG.slice(2, 6), tasksDir, base);
    const out = join(dir, 'out-deaths');
    /** @type {number | null} */ let pid = null;
    /** @type {number[]} */ const killed = [];
    /** @param {string} line */
    const onLine = (line) => {
      const browser = /^browser 1 (?:started|relaunched) \(pid (\d+)\)$/.exec(line);
      if (browser) pid = Number(browser[1]);
      // Each fresh browser dies at its task's first recorded step, three times.
      if (/ {2}step [1-9]\d*$/.test(line) && pid && !killed.includes(pid) && killed.length < 3) {
        killed.push(pid);
        process.kill(pid, 'SIGKILL');
      }
    };
    const args = ['--tasks', tasksDir, '--out', out, '--retries', '5'];
    const run = await startRunner(args, { onLine }).done;
    assert.equal(killed.length, 3, run.stdout);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stderr, /^run: browser 1 died 3 times in a row, so the batch stopped instead of failing every remaining task: look for what kills Chromium .*then run the same command again to go on where it stopped$/m);
    const stopped = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(stopped.map((l) => [l.id, l.verdict, l.error_kind]), tasks.slice(0, 3).map((t) => [t.id, 'ERROR', 'infrastructure']));
    // The fourth task never started, and the report was still written.
    assert.doesNotMatch(run.stdout, new RegExp(`${tasks[3].id} {2}started`));
    assert.ok(existsSync(join(out, 'report.html')));

    const again = await runRunner(args);
    assert.equal(again.status, 0, `${again.stdout}\n${again.stderr}`);
    assert.match(again.stdout.split('\n')[0], /; 0 already recorded in .*; 3 errors to retry; running 4 with replay/);
    const last = byId(readLines(join(out, 'results.jsonl')));
    for (const { id } of tasks) assert.equal(/** @type {import('../types.mjs').Json[]} */ (last.get(id)).at(-1).verdict, 'PASS', id);
  });

  test('resuming re-runs exactly the infrastructure errors; --no-retry-errors keeps them', async () => {
    const tasksDir = join(dir, 'short');
    mkdirSync(tasksDir);
    const tasks = copyBundledTasks(SHORT, tasksDir, base);
    const out = join(dir, 'out-resume');
    mkdirSync(out);
    /**
     * @param {string} id
     * @param {string} verdict
     * @param {object} [extra]
     */
    const line = (id, verdict, extra) => ({
      id, hops_total: 1, hops_completed: verdict === 'PASS' ? 1 : 0, hop_steps: [verdict === 'PASS' ? 2 : null],
      verdict, answer: null, answer_score: null, steps: 2, tokens: { input: 0, output: 0 }, time_ms: 1000,
      error: null, reason: null, attempt: 1, error_kind: null, ...extra,
    });
    const infrastructure = { error: 'timed out after 60 s (per-task timeout, --task-timeout)', error_kind: 'infrastructure' };
    const ids = tasks.map((t) => t.id);
    const recorded = [
      line(ids[0], 'ERROR', infrastructure),
      line(ids[1], 'FAIL'),
      line(ids[2], 'PASS'),
      line(ids[3], 'ERROR', { error: 'the browser (pid 4242) died: killed, crashed or out of memory during the task', error_kind: 'infrastructure' }),
      line(ids[4], 'PASS'),
      line(ids[5], 'FAIL'),
      // As a runner before attempts wrote the lines of the crash in issue 16.
      { ...line(ids[6], 'ERROR', { error: 'the run did not start: page.evaluate: Target page, context or browser has been closed' }), attempt: undefined, error_kind: undefined },
      line(ids[7], 'PASS'),
    ];
    const text = recorded.map((l) => `${JSON.stringify(l)}\n`).join('');
    writeFileSync(join(out, 'results.jsonl'), text);

    const kept = await runRunner(['--tasks', tasksDir, '--out', out, '--no-retry-errors']);
    assert.equal(kept.status, 0, `${kept.stdout}\n${kept.stderr}`);
    assert.match(kept.stdout, /^8 tasks in .*; 8 already recorded in .*; running 0 with replay/m);
    assert.equal(readFileSync(join(out, 'results.jsonl'), 'utf8'), text);

    const resumed = await runRunner(['--tasks', tasksDir, '--out', out, '--parallel', '2']);
    assert.equal(resumed.status, 0, `${resumed.stdout}\n${resumed.stderr}`);
    assert.match(resumed.stdout.split('\n')[0], /^8 tasks in .*; 5 already recorded in .*; 3 errors to retry; running 3 with replay, 2 at a time$/);
    const all = readLines(join(out, 'results.jsonl'));
    assert.equal(readFileSync(join(out, 'results.jsonl'), 'utf8').slice(0, text.length), text, 'recorded lines changed');
    const added = all.slice(recorded.length);
    assert.deepEqual(
      added.map((l) => [l.id, l.verdict, l.attempt]).sort(),
      [[ids[0], 'PASS', 2], [ids[3], 'PASS', 2], [ids[6], 'PASS', 2]].sort(),
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.deepEqual(summary.counts, { tasks: 8, pass: 6, fail: 2, error: 0 });
    assert.equal(summary.retries.tasks, 3);
  });
});
