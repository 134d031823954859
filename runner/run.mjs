#!/usr/bin/env node
// `./build.sh run --tasks PATH [options]`: runs every task of a file or folder in
// headless Chromium through the extension, one fresh session per task, and records
// DIR/results.jsonl, DIR/trajectories/ and the report (`hopbench report DIR`).
// Options: runner/args.mjs; formats and behaviour: docs/runner.md.

import { spawnSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_KEY_ENV, USAGE, UsageError, parseArgs } from './args.mjs';
import { launchWithExtension } from './browser.mjs';
import { ensureBuilt } from './build.mjs';
import { watchInterrupt } from './interrupt.mjs';
import { openDriver, runOverrides, settingsToSave } from './extension.mjs';
import { chromiumPath, distDir, nativeBin, repoRoot, taskFileStem } from './paths.mjs';
import { makeProgress, runPool } from './progress.mjs';
import { appendMemory, memoryRecordOf, withMemory } from './memory.mjs';
import { appendResult, prepareRunFolder, readFinished, runConfig } from './run-folder.mjs';
import { makeRedactor, readApiKey } from './secret.mjs';
import { runSweep } from './sweep.mjs';
import { runTask } from './task-run.mjs';
import { listTasks, pendingTasks, repeatedIds, selectShard } from './tasks.mjs';
import { writeTrajectory } from './trajectory.mjs';

const say = (line) => process.stdout.write(`${line}\n`);

/**
 * @param {string[]} argv
 * @param {{ defaults?: {tasks?: string, out?: string}, env?: NodeJS.ProcessEnv }} [context]
 * @returns {Promise<number>} the exit status: 0 done, 1 something failed, 2 usage, 130 interrupted
 */
export async function main(argv, { defaults = {}, env = process.env } = {}) {
  let options;
  try {
    options = parseArgs(argv, defaults);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`run: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    say(USAGE);
    return 0;
  }
  try {
    if (options.memorySweep) {
      const out = resolve(options.out ?? join(repoRoot, 'out', `${defaultOutName(options)}-memory-sweep`));
      return await runSweep(options, out, (one) => runAll(one, env), { nativeBin, say });
    }
    return await runAll(options, env);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`run: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`run: ${error.message}\n`);
    return 1;
  }
}

async function runAll(options, env) {
  const interrupt = watchInterrupt(say);
  try {
    return await runAllWatched(options, env, interrupt);
  } finally {
    interrupt.dispose();
  }
}

async function runAllWatched(options, env, interrupt) {
  const { key, note: keyNote } = readApiKey(options, env, DEFAULT_KEY_ENV);
  const redact = makeRedactor(key);
  const out = resolve(options.out ?? join(repoRoot, 'out', defaultOutName(options)));
  ensureBuilt(say);

  const { tasks, bad } = listTasks(nativeBin, options.tasks);
  for (const b of bad) say(`skipped, the task file cannot be read: ${b.error}`);
  for (const r of repeatedIds(tasks)) {
    say(`warning: task id ${r.id} is in ${r.files.join(' and ')}; only one result per id is kept`);
  }
  const selected = selectShard(tasks, options.shard);
  prepareRunFolder(out, runConfig(options));
  const { finished, notes } = readFinished(out);
  notes.forEach((n) => say(`note: ${n}`));
  const pending = pendingTasks(selected, finished, options.retryErrors);
  say(planLine(options, tasks.length, selected.length, pending.length, out));

  if (pending.length > 0 && !interrupt.interrupted) {
    if (keyNote) say(keyNote);
    await runPending(pending, options, key, out, redact, interrupt);
  }
  if (interrupt.interrupted) {
    say(`interrupted: finished tasks are in ${join(out, 'results.jsonl')}; run the same command again to continue`);
    return 130;
  }
  const report = spawnSync(nativeBin, ['report', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (report.status !== 0) return 1;
  say(`report: ${join(out, 'report.html')}`);
  return bad.length > 0 ? 1 : 0;
}

/**
 * Runs the tasks on `--parallel` lanes, each its own browser (own profile, one session
 * at a time). Several session windows in one headless browser made observations hang
 * for good now and then (a run stuck in `observe` with its page loaded); separate
 * browsers never did, and keep the runs' storage apart as well.
 */
async function runPending(pending, options, key, out, redact, interrupt) {
  const progress = makeProgress({ total: pending.length, redact });
  const lanes = Math.min(options.parallel, pending.length);
  const browsers = [];
  let closed = false;
  const closeAll = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
  };
  interrupt.onInterrupt(closeAll);
  try {
    const drivers = [];
    // One after another: starting several Chromiums at once only competes for the CPU.
    for (let i = 0; i < lanes && !interrupt.interrupted; i += 1) {
      const browser = await launchWithExtension({ extensionDir: distDir, chromiumPath });
      browsers.push(browser);
      const driver = await openDriver(browser);
      if (options.provider !== 'replay') {
        const notes = await driver.saveSettings(settingsToSave(options, key));
        if (i === 0) notes.forEach((n) => progress.note(`settings: ${n.field}: ${n.message}`));
      }
      drivers.push(driver);
    }
    const overrides = runOverrides(options);
    await runPool(
      pending,
      drivers.length,
      async (task, index, lane) => {
        progress.started(index + 1, task);
        const onProgress = (p) => progress.step(index + 1, task, p);
        const taskOverrides = withMemory(overrides, out);
        const done = await runTask(drivers[lane], task, { overrides: taskOverrides, timeoutMs: options.taskTimeoutMs, onProgress });
        if (interrupt.interrupted) return;
        record(out, task, done, redact, progress);
        progress.finished(index + 1, task, done.line);
      },
      () => interrupt.interrupted,
    );
  } catch (error) {
    // Closing the browsers on interrupt makes the calls in flight fail; that is expected.
    if (!interrupt.interrupted) throw error;
  } finally {
    await closeAll();
  }
}

/** Trajectory first, then the result line: a recorded line always has its files. */
function record(out, task, { line, trajectory, exportError }, redact, progress) {
  if (trajectory) {
    try {
      writeTrajectory(out, taskFileStem(task.id), trajectory, redact);
    } catch (error) {
      progress.note(`warning: the trajectory of ${task.id} could not be written: ${error.message}`);
    }
  } else if (exportError) {
    progress.note(`warning: no trajectory for ${task.id}: ${exportError}`);
  }
  appendResult(out, JSON.parse(redact(JSON.stringify(line))));
  // The next tasks' memory: what the core made of this run (no answers, no conditions).
  const memoryRecord = memoryRecordOf(trajectory);
  if (memoryRecord) appendMemory(out, JSON.parse(redact(JSON.stringify(memoryRecord))));
}

function planLine(options, listed, selected, pending, out) {
  const shard = options.shard ? ` (shard ${options.shard.index}/${options.shard.count}: ${selected})` : '';
  const done = selected - pending;
  const modular = options.agent === 'modular' ? ' (modular agent)' : '';
  const model = options.provider === 'replay' ? 'replay' : `${options.provider} ${options.model ?? '(default model)'}${modular}`;
  const agent = options.memory > 0 ? `${model}, memory K=${options.memory} ${options.memoryPolicy}` : model;
  return (
    `${listed} task${listed === 1 ? '' : 's'} in ${options.tasks}${shard}; ` +
    `${done} already recorded in ${out}; running ${pending} with ${agent}, ${options.parallel} at a time`
  );
}

/** out/<tasks name>-<provider>[-<model>], e.g. out/tasks-replay, out/normal-openai-gpt-4o. */
function defaultOutName(options) {
  const name = basename(resolve(options.tasks)).replace(/\.json$/i, '');
  return [name, options.provider, options.model]
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
