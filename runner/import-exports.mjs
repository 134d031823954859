// `./build.sh import FILE_OR_DIR... --out DIR`: runs exported from the extension
// (the runs page's Export: `format: "hopbench-trajectory"`) into a run folder the
// report reads: results.jsonl, trajectories/ with their pictures, and run.json. People's
// sessions (`provider: "human"`) import as a folder of their own, which
// `./build.sh report AGENT_DIR HUMAN_DIR` puts beside the agents' results.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { attemptFileStem } from './paths.mjs';
import { resultLine } from './result-line.mjs';
import { RESULTS, appendResult, prepareRunFolder } from './run-folder.mjs';
import { writeTrajectory } from './trajectory.mjs';

export const EXPORT_FORMAT = 'hopbench-trajectory';
/** A participant's study (extension/study.js): its settings and every run. */
export const STUDY_FORMAT = 'hopbench-study';

/**
 * @typedef {{ format: string, run: Record<string, any>, task: Record<string, any> | null,
 *   settings?: unknown, steps: unknown[], media?: unknown }} RunExport
 */

/**
 * The export files named: files as given, folders walked for `*.json` (sorted).
 * @param {string[]} paths
 * @returns {string[]}
 */
export function exportFiles(paths) {
  const files = [];
  for (const path of paths) {
    if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name.endsWith('.json')) files.push(join(path, name));
      }
    } else {
      files.push(path);
    }
  }
  if (files.length === 0) throw new Error(`no .json file in ${paths.join(', ')}`);
  return files;
}

/**
 * Reads one file: a run's export, or a study's (each of its runs); an error names the
 * file and what is wrong with it.
 * @param {string} file
 * @returns {RunExport[]}
 */
export function readExport(file) {
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not JSON (${/** @type {Error} */ (error).message})`, { cause: error });
  }
  if (value?.format === STUDY_FORMAT && Array.isArray(value.runs)) {
    return value.runs.map((/** @type {unknown} */ run, /** @type {number} */ i) => checked(run, `${file} run ${i + 1}`));
  }
  if (value?.format !== EXPORT_FORMAT) {
    throw new Error(`${file}: not a run exported from the extension (format is ${JSON.stringify(value?.format)}, not "${EXPORT_FORMAT}" or "${STUDY_FORMAT}")`);
  }
  return [checked(value, file)];
}

/**
 * @param {any} value
 * @param {string} where
 * @returns {RunExport}
 */
function checked(value, where) {
  if (value?.format !== EXPORT_FORMAT || typeof value.run?.taskId !== 'string' || !Array.isArray(value.steps)) {
    throw new Error(`${where}: the export has no run.taskId or no steps`);
  }
  return value;
}

/**
 * The task's hop count as the run knew it: the verdict's, the progress view's, else
 * the task file's hops.
 * @param {RunExport} exported
 * @returns {number}
 */
function hopsOf(exported) {
  const { run, task } = exported;
  const candidates = [run.verdict?.hops_total, run.progress?.total, Array.isArray(task?.hops) ? task.hops.length : undefined];
  return candidates.find((n) => Number.isInteger(n) && n > 0) ?? 1;
}

/**
 * Imports `files` into a new folder `out`; one results line per run (a task done
 * twice gets attempts 1, 2, ... in the order the runs started, the last one
 * counting). All runs must come from one provider: a folder holds one configuration.
 * @param {string[]} files
 * @param {string} out
 * @returns {{ runs: number, provider: string }}
 */
export function importExports(files, out) {
  const runs = files.flatMap(readExport).sort((a, b) => (a.run.startedAt ?? 0) - (b.run.startedAt ?? 0));
  const providers = [...new Set(runs.map((r) => r.run.provider ?? 'unknown'))];
  if (providers.length > 1) {
    throw new Error(`the exports come from ${providers.join(' and ')}: import each provider's runs into its own folder (a folder holds one configuration)`);
  }
  const provider = providers[0];
  // Importing twice into one folder would count every run twice.
  if (existsSync(join(out, RESULTS))) throw new Error(`${out} already holds results: import into a new folder`);
  prepareRunFolder(out, { provider, model: null, base_url: null, max_steps: null, observation: null, sites: 'any', imported: true });
  /** @type {Map<string, number>} */
  const attempts = new Map();
  for (const exported of runs) {
    const id = exported.run.taskId;
    const attempt = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, attempt);
    const { run } = exported;
    // A person's clock is the time they were active (pauses left out); an agent's, start to finish.
    const elapsedMs = Number.isInteger(run.activeMs) ? run.activeMs : (run.finishedAt ?? run.startedAt ?? 0) - (run.startedAt ?? 0);
    writeTrajectory(out, attemptFileStem(id, attempt), exported, (/** @type {string} */ text) => text);
    // A person who gave up failed the task (their session is scored all the same); for
    // an agent a stopped run is an error, since someone cut it short.
    const scored = run.provider === 'human' && run.status === 'stopped' ? { ...run, status: 'finished' } : run;
    appendResult(out, resultLine({ task: { id, hops: hopsOf(exported) }, run: scored, attempt, elapsedMs }));
  }
  return { runs: runs.length, provider };
}

/**
 * For `./build.sh report`: each argument that is a folder of exports (no results.jsonl,
 * `.json` files from the extension) is imported into `<folder>/imported` (once) and
 * replaced by that folder; every other argument is kept as it is.
 * @param {string[]} args the report's arguments
 * @returns {string[]}
 */
export function reportArgs(args) {
  return args.map((arg, i) => {
    if (args[i - 1] === '--out' || arg.startsWith('-') || !existsSync(arg) || !statSync(arg).isDirectory()) return arg;
    if (existsSync(join(arg, RESULTS))) return arg;
    const files = readdirSync(arg).filter((n) => n.endsWith('.json')).map((n) => join(arg, n));
    const isExport = (/** @type {string} */ f) => {
      try {
        const format = JSON.parse(readFileSync(f, 'utf8'))?.format;
        return format === EXPORT_FORMAT || format === STUDY_FORMAT;
      } catch {
        return false;
      }
    };
    if (files.length === 0 || !files.every(isExport)) return arg;
    const imported = join(arg, 'imported');
    if (!existsSync(join(imported, RESULTS))) {
      const { runs, provider } = importExports(files, imported);
      process.stderr.write(`imported ${runs} ${provider} run(s) from ${arg} into ${imported}\n`);
    }
    return imported;
  });
}

const USAGE = 'usage: ./build.sh import FILE_OR_DIR... --out DIR   (runs exported from the extension\'s runs page)';

/**
 * `FILE_OR_DIR... --out DIR`, or null for a usage error (no --out, --out twice, no
 * path, an unknown option).
 * @param {string[]} argv
 * @returns {{ out: string, paths: string[] } | null}
 */
function parseImportArgs(argv) {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      options: { out: { type: 'string' } },
      allowPositionals: true,
      tokens: true,
    });
    const outs = tokens.filter((t) => t.kind === 'option').length;
    if (!values.out || outs !== 1 || positionals.length === 0) return null;
    return { out: values.out, paths: positionals };
  } catch {
    return null;
  }
}

/** @param {string[]} argv */
function main(argv) {
  if (argv[0] === '--for-report') {
    try {
      process.stdout.write(reportArgs(argv.slice(1)).map((a) => `${a}\n`).join(''));
      return 0;
    } catch (error) {
      process.stderr.write(`report: ${/** @type {Error} */ (error).message}\n`);
      return 1;
    }
  }
  const parsed = parseImportArgs(argv);
  if (parsed === null) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { out, paths } = parsed;
  try {
    const { runs, provider } = importExports(exportFiles(paths), resolve(out));
    process.stdout.write(`imported ${runs} ${provider} run(s) into ${out}; report it with ./build.sh report ${out} (beside an agent's folder to compare)\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`import: ${/** @type {Error} */ (error).message}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
