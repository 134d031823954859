// The run folder: results.jsonl (one line per finished task, appended and flushed as
// each task ends, so a crash loses at most the task in flight), run.json (what the
// folder's results were produced with) and trajectories/.

import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync,
  truncateSync, writeFileSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { lastAttemptOf } from './attempts.mjs';

export const RESULTS = 'results.jsonl';
export const RUN_CONFIG = 'run.json';

/**
 * The tasks already recorded in DIR/results.jsonl, each with its last line's verdict,
 * error kind and attempt number (the later line wins, as in the report). An
 * unfinished last line (the process died while writing it) is moved to
 * results.jsonl.partial, so the file stays valid and the task runs again; any other
 * bad line stops the run before it starts.
 * @returns {{ finished: Map<string, {verdict: string, errorKind: string|null, attempt: number}>,
 *   notes: string[] }}
 * @param {string} dir
 */
export function readFinished(dir) {
  const file = join(dir, RESULTS);
  /** @type {Map<string, {verdict: string, errorKind: string|null, attempt: number}>} */
  const finished = new Map();
  /** @type {string[]} */
  const notes = [];
  if (!existsSync(file)) return { finished, notes };
  let text = readFileSync(file, 'utf8');
  if (text.length > 0 && !text.endsWith('\n')) {
    const cut = text.lastIndexOf('\n') + 1;
    const tail = text.slice(cut);
    if (!parses(tail)) {
      const aside = `${file}.partial`;
      writeFileSync(aside, tail + '\n', { flag: 'a' });
      truncateSync(file, Buffer.byteLength(text.slice(0, cut)));
      notes.push(`an unfinished last line of ${file} was moved to ${aside}; its task runs again`);
      text = text.slice(0, cut);
    } else {
      writeFileSync(file, '\n', { flag: 'a' });
      text += '\n';
    }
  }
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let line;
    try {
      line = JSON.parse(raw);
    } catch (error) {
      throw new Error(`${file}:${index + 1} is not valid JSON (${/** @type {Error} */ (error).message}); fix or remove that line`, {
        cause: error,
      });
    }
    if (typeof line?.id !== 'string' || typeof line?.verdict !== 'string') {
      throw new Error(`${file}:${index + 1} has no "id" and "verdict"; fix or remove that line`);
    }
    finished.set(line.id, lastAttemptOf(line));
  });
  return { finished, notes };
}

/** @param {string} text */
function parses(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    // Not JSON: the line was cut off mid-write.
    return false;
  }
}

/**
 * Appends one result line and flushes it to disk before returning.
 * @param {string} dir
 * @param {unknown} line
 */
export function appendResult(dir, line) {
  const fd = openSync(join(dir, RESULTS), 'a');
  try {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * What makes results comparable: a folder holds one configuration's results, or a
 * re-run would mix models and silently skip tasks run with another one. Parallelism,
 * shards and timeouts do not change what a result means, so they are not compared.
 * @param {Omit<Partial<import('./args.mjs').Options>, 'help'>} options
 */
export function runConfig(options) {
  return {
    provider: options.provider,
    model: options.model ?? null,
    base_url: options.baseUrl ?? null,
    max_steps: options.maxSteps ?? null,
    observation: options.observation ?? null,
    // Memory changes what a result means. Written only when on, so a folder without
    // memory reads the same as one made before memory existed.
    ...((options.memory ?? 0) > 0 ? { memory_k: options.memory, memory_policy: options.memoryPolicy ?? 'recent' } : {}),
    // Likewise the agent: written only when not the prompt agent.
    ...(options.agent && options.agent !== 'prompt' ? { agent: options.agent } : {}),
    // The modular agent's variant, when one was asked for.
    ...(options.grounding !== undefined ? { grounding: options.grounding } : {}),
    ...(options.select !== undefined ? { select: options.select } : {}),
    // What the model is asked with: written only when given, as memory is.
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxObsTokens !== undefined ? { max_obs_tokens: options.maxObsTokens } : {}),
    // A fenced agent cannot follow a page off the task's sites: another result.
    sites: options.sites ?? 'any',
  };
}

/**
 * What a run.json written before a setting existed ran with.
 * @type {Readonly<Record<string, unknown>>}
 */
const BEFORE_RECORDED = Object.freeze({ sites: 'any' });

/**
 * Creates the folder and run.json, or checks that run.json agrees with `config`.
 * @param {string} dir
 * @param {Record<string, unknown>} config
 */
export function prepareRunFolder(dir, config) {
  mkdirSync(join(dir, 'trajectories'), { recursive: true });
  const file = join(dir, RUN_CONFIG);
  if (!existsSync(file)) {
    writeFileSync(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
    return;
  }
  const recorded = JSON.parse(readFileSync(file, 'utf8'));
  /**
   * @param {Record<string, unknown>} c
   * @param {string} k
   */
  const value = (c, k) => c[k] ?? BEFORE_RECORDED[k] ?? null;
  // Both sides' keys: a field only one of them has (memory, agent) differs from its absence.
  const keys = [...new Set([...Object.keys(config), ...Object.keys(recorded)])];
  const differing = keys.filter((k) => value(recorded, k) !== value(config, k));
  if (differing.length > 0) {
    /** @param {Record<string, unknown>} c */
    const show = (c) => differing.map((k) => `${k}=${JSON.stringify(value(c, k))}`).join(' ');
    throw new Error(
      `${dir} holds results run with ${show(recorded)}, not ${show(config)}; ` +
        'give another --out folder (or delete that one) so results are not mixed',
    );
  }
}
