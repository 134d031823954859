#!/usr/bin/env node
// `./build.sh run --tasks PATH [options]`: runs every task of a file or folder in
// headless Chromium through the extension, one fresh session per task, and records
// DIR/results.jsonl, DIR/trajectories/ and the report (`hopbench report DIR`).
// Options: runner/args.mjs; formats and behaviour: docs/runner.md.

import { spawnSync } from 'node:child_process';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_KEY_ENV, USAGE, UsageError, parseArgs, sitesWarning } from './args.mjs';
import { planRuns } from './attempts.mjs';
import { runBatch } from './batch.mjs';
import { ensureBuilt } from './build.mjs';
import { watchInterrupt } from './interrupt.mjs';
import { runOverrides, settingsToSave } from './extension.mjs';
import { sweepStaleProfiles } from './lane.mjs';
import { attemptFileStem, nativeBin, repoRoot } from './paths.mjs';
import { makeProgress } from './progress.mjs';
import { helloAgent } from './own-agent.mjs';
import { appendMemory, memoryRecordOf, withMemory } from './memory.mjs';
import { appendResult, prepareRunFolder, readFinished, runConfig } from './run-folder.mjs';
import { makeRedactor, readApiKey } from './secret.mjs';
import { runSweep } from './sweep.mjs';
import { listTasks, repeatedIds, selectShard } from './tasks.mjs';
import { allowedNames, startNameGuard } from './private-names.mjs';
import { writeTrajectory } from './trajectory.mjs';

/** @typedef {import('./args.mjs').Options} Options */
/** @typedef {import('./tasks.mjs').TaskEntry} TaskEntry */
/** @typedef {ReturnType<typeof watchInterrupt>} Interrupt */
/** @typedef {((sinceMs: number) => string | null) | undefined} Outage */
/** @typedef {(text: string) => string} Redact */
/**
 * The command that goes on with the batch in a run folder: the one that was given,
 * with `--out` that folder.
 * @typedef {(out: string) => string} ResumeCommand
 */

/** @param {string} line */
const say = (line) => process.stdout.write(`${line}\n`);

/**
 * @param {string[]} argv
 * @param {{ defaults?: {tasks?: string, out?: string}, env?: NodeJS.ProcessEnv,
 *   outage?: (sinceMs: number) => string | null, command?: 'run' | 'demo' }} [context]
 *   `outage`: an infrastructure failure outside the browser since a time (the demo's
 *   sandbox), see runner/batch.mjs; `command`: the ./build.sh command that was run, for
 *   the command that resumes a stopped batch
 * @returns {Promise<number>} the exit status: 0 done, 1 something failed (a task file
 *   that cannot be read, a batch stopped early, a batch of nothing but ERRORs), 2 usage,
 *   130 interrupted
 */
export async function main(argv, { defaults = {}, env = process.env, outage, command = 'run' } = {}) {
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
    /** @type {ResumeCommand} */
    const resume = (out) => resumeCommand(command, argv, out);
    const sweep = options.memorySweep;
    if (sweep) {
      const out = resolve(options.out ?? join(repoRoot, 'out', `${defaultOutName(options)}-memory-sweep`));
      // The sweep goes on as a whole: its command with its own folder.
      return await runSweep({ ...options, memorySweep: sweep }, out, (one) => runAll(one, env, outage, () => resume(out)), { nativeBin, say });
    }
    return await runAll(options, env, outage, resume);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`run: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`run: ${/** @type {Error} */ (error).message}\n`);
    return 1;
  }
}

/**
 * @param {Options} options
 * @param {NodeJS.ProcessEnv} env
 * @param {Outage} outage
 * @param {ResumeCommand} resume
 */
async function runAll(options, env, outage, resume) {
  const interrupt = watchInterrupt(say);
  try {
    return await runAllWatched(options, env, interrupt, outage, resume);
  } finally {
    interrupt.dispose();
  }
}

/**
 * @param {Options} options
 * @param {NodeJS.ProcessEnv} env
 * @param {Interrupt} interrupt
 * @param {Outage} outage
 * @param {ResumeCommand} resume
 */
async function runAllWatched(options, env, interrupt, outage, resume) {
  const { key, note: keyNote } = readApiKey(options, env, DEFAULT_KEY_ENV);
  const redact = makeRedactor(key);
  if (options.provider === 'agent' && options.model === undefined) {
    // validate() refuses --provider agent without --base-url.
    const name = await helloAgent(/** @type {string} */ (options.baseUrl), key);
    say(`agent: ${name} at ${options.baseUrl}`);
    options = { ...options, model: name };
  }
  const out = resolve(options.out ?? join(repoRoot, 'out', defaultOutName(options)));
  ensureBuilt(say);

  // validate() refuses options without --tasks.
  const { tasks, bad } = listTasks(nativeBin, /** @type {string} */ (options.tasks));
  for (const b of bad) say(`skipped, the task file cannot be read: ${b.error}`);
  for (const r of repeatedIds(tasks)) {
    say(`warning: task id ${r.id} is in ${r.files.join(' and ')}; only one result per id is kept`);
  }
  const selected = selectShard(tasks, options.shard);
  prepareRunFolder(out, runConfig(options));
  const { finished, notes } = readFinished(out);
  notes.forEach((n) => say(`note: ${n}`));
  const plan = planRuns(selected, finished, options.retryErrors);
  say(planLine(options, tasks.length, selected.length, plan, out));
  // After the plan line, which stays the batch's first line.
  const warning = sitesWarning(options);
  if (warning) say(warning);
  const swept = sweepStaleProfiles();
  if (swept > 0) say(`note: removed ${swept} browser profile folder${swept === 1 ? '' : 's'} left by runners that were killed`);

  /** @type {{ stopped: string | null, resumable: boolean, verdicts: Verdicts }} */
  let batch = { stopped: null, resumable: false, verdicts: { PASS: 0, FAIL: 0, ERROR: 0 } };
  if (plan.runs.length > 0 && !interrupt.interrupted) {
    if (keyNote) say(keyNote);
    // A fenced batch in browsers of our own: no name that resolves to this machine
    // reaches it unless a task names it (private-names.mjs).
    const guard = options.sites === 'task' && options.browserEndpoints.length === 0
      ? await startNameGuard(allowedNames(selected, options.baseUrl))
      : null;
    try {
      batch = await runPlanned(plan.runs, options, key, out, redact, interrupt, outage, guard?.args ?? []);
    } finally {
      await guard?.close();
    }
  }
  if (interrupt.interrupted) {
    say(`interrupted: finished tasks are in ${join(out, 'results.jsonl')}; run the same command again to continue`);
    return 130;
  }
  const report = spawnSync(nativeBin, ['report', out, ...(options.prices ? ['--prices', options.prices] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (report.status !== 0) return 1;
  say(`report: ${join(out, 'report.html')}`);
  if (batch.stopped) {
    process.stderr.write(`run: ${batch.stopped}\n`);
    if (batch.resumable) process.stderr.write(`run: to go on where it stopped, run: ${resume(out)}\n`);
    return 1;
  }
  const nothingButErrors = noAgentResult(batch.verdicts);
  if (nothingButErrors) {
    process.stderr.write(`run: ${nothingButErrors}\n`);
    return 1;
  }
  return bad.length > 0 ? 1 : 0;
}

/** @typedef {{ PASS: number, FAIL: number, ERROR: number }} Verdicts the attempts this batch recorded, by verdict */

/**
 * Why a batch that recorded only ERRORs failed, or null: with no PASS and no FAIL,
 * nothing in it measured the agent, whatever the report's rates say (0 %).
 * @param {Verdicts} verdicts
 * @returns {string | null}
 */
export function noAgentResult(verdicts) {
  if (verdicts.ERROR === 0 || verdicts.PASS + verdicts.FAIL > 0) return null;
  const n = verdicts.ERROR;
  return (
    `every attempt of this batch ended in ERROR (${n} attempt${n === 1 ? '' : 's'}, no PASS or FAIL): ` +
    'no agent result was recorded; the errors above (and in results.jsonl) say what broke'
  );
}

/**
 * The ./build.sh command, as typed from the current folder, that goes on with the
 * batch in `out`: the arguments given, with `--out` set to that folder (re-running
 * into the same folder resumes; the demo empties its default folder unless --out is
 * given). Arguments are quoted for a POSIX shell where they need it.
 * @param {'run' | 'demo'} command
 * @param {string[]} argv
 * @param {string} out
 */
export function resumeCommand(command, argv, out) {
  /** @type {string[]} */
  const kept = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--out') i += 1;
    else if (!argv[i].startsWith('--out=')) kept.push(argv[i]);
  }
  const script = relative(process.cwd(), join(repoRoot, 'build.sh'));
  const buildSh = script.includes('/') ? script : `./${script}`;
  return [buildSh, command, ...kept, '--out', out].map(shellWord).join(' ');
}

/**
 * A word a POSIX shell reads back as `word`.
 * @param {string} word
 */
function shellWord(word) {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs the planned attempts on `--parallel` lanes, each its own browser (own profile,
 * one session at a time). Several session windows in one headless browser made
 * observations hang for good now and then (a run stuck in `observe` with its page
 * loaded); separate browsers never did, and keep the runs' storage apart as well.
 * @param {{task: TaskEntry, attempt: number}[]} runs
 * @param {Options} options
 * @param {string | undefined} key
 * @param {string} out
 * @param {Redact} redact
 * @param {Interrupt} interrupt
 * @param {Outage} outage
 * @param {string[]} browserArgs more flags for the browsers the batch launches
 * @returns {Promise<{ stopped: string | null, resumable: boolean, verdicts: Verdicts }>}
 */
async function runPlanned(runs, options, key, out, redact, interrupt, outage, browserArgs) {
  const progress = makeProgress({ total: runs.length, redact });
  const setup =
    options.provider === 'replay'
      ? undefined
      : /** @type {import('./lane.mjs').Setup} */ (async (driver, first) => {
          const notes = await driver.saveSettings(settingsToSave(options, key));
          if (first) notes.forEach((n) => progress.note(`settings: ${n.field}: ${n.message}`));
        });
  /** @type {Verdicts} */
  const verdicts = { PASS: 0, FAIL: 0, ERROR: 0 };
  const ended = await runBatch(runs, {
    lanes: options.parallel,
    endpoints: options.browserEndpoints.length > 0 ? options.browserEndpoints : null,
    otherExtensions: options.otherExtensions,
    browserArgs,
    retries: options.retries,
    maxInfraErrors: options.maxInfraErrors,
    // With memory, each task's START_RUN carries the records finished so far.
    overrides: options.memory > 0 ? () => withMemory(runOverrides(options), out) : runOverrides(options),
    timeoutMs: options.taskTimeoutMs,
    setup,
    record: (task, done) => {
      record(out, task, done, redact, progress);
      verdicts[done.line.verdict === 'PASS' ? 'PASS' : done.line.verdict === 'FAIL' ? 'FAIL' : 'ERROR'] += 1;
    },
    progress,
    interrupt,
    outage,
  });
  return { ...ended, verdicts };
}

/**
 * Trajectory first, then the result line: a recorded line always has its files.
 * @param {string} out
 * @param {TaskEntry} task
 * @param {import('./task-run.mjs').TaskOutcome} done
 * @param {Redact} redact
 * @param {ReturnType<typeof makeProgress>} progress
 */
function record(out, task, { line, trajectory, exportError }, redact, progress) {
  const stem = attemptFileStem(task.id, line.attempt);
  if (trajectory) {
    try {
      writeTrajectory(out, stem, trajectory, redact);
    } catch (error) {
      progress.note(`warning: the trajectory of ${task.id} could not be written: ${/** @type {Error} */ (error).message}`);
    }
  } else if (exportError) {
    progress.note(`warning: no trajectory for ${task.id}: ${exportError}`);
  }
  appendResult(out, JSON.parse(redact(JSON.stringify(line))));
  // The next tasks' memory: what the core made of this run (no answers, no conditions).
  const memoryRecord = memoryRecordOf(trajectory);
  if (memoryRecord) appendMemory(out, JSON.parse(redact(JSON.stringify(memoryRecord))));
}

/**
 * @param {Options} options
 * @param {number} listed
 * @param {number} selected
 * @param {{ runs: unknown[], errorsToRetry: number }} plan
 * @param {string} out
 */
function planLine(options, listed, selected, plan, out) {
  const shard = options.shard ? ` (shard ${options.shard.index}/${options.shard.count}: ${selected})` : '';
  const pending = plan.runs.length;
  const done = selected - pending;
  const retry = plan.errorsToRetry;
  const errors = retry > 0 ? `${retry} error${retry === 1 ? '' : 's'} to retry; ` : '';
  const modular = options.agent === 'modular' ? ' (modular agent)' : '';
  const model = options.provider === 'replay' ? 'replay' : `${options.provider} ${options.model ?? '(default model)'}${modular}`;
  const agent = options.memory > 0 ? `${model}, memory K=${options.memory} ${options.memoryPolicy}` : model;
  return (
    `${listed} task${listed === 1 ? '' : 's'} in ${options.tasks}${shard}; ` +
    `${done} already recorded in ${out}; ${errors}running ${pending} with ${agent}, ${options.parallel} at a time`
  );
}

/** out/<tasks name>-<provider>[-<model>], e.g. out/tasks-replay, out/normal-openai-gpt-4o. */
/** @param {Options} options */
function defaultOutName(options) {
  const name = basename(resolve(/** @type {string} */ (options.tasks))).replace(/\.json$/i, '');
  return [name, options.provider, options.model]
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
