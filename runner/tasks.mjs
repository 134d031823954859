// The task list of a run: the native CLI imports the files (`hopbench tasks`, the same
// core the extension runs), then this module picks the shard. Which of them still need
// running is attempts.mjs's `planRuns`.

import { spawnSync } from 'node:child_process';
import { UsageError } from './args.mjs';

/** How the native CLI starts the line that says what is wrong. */
const CLI_PREFIX = 'hopbench: ';

/**
 * @typedef {{ file: string, fileName: string, id: string, hops: number, startUrls: string[],
 *   referenceSteps: number, siteHosts: string[] }} TaskEntry `siteHosts`: the hosts of
 *   the task's site fence
 * @param {string} bin the native CLI
 * @param {string} path a task file or folder
 * @returns {{ tasks: TaskEntry[], bad: {file: string, error: string}[] }}
 */
export function listTasks(bin, path) {
  const out = spawnSync(bin, ['tasks', path], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (out.error) throw new Error(`cannot run ${bin}: ${out.error.message}`);
  if (out.status === 2) {
    // Exit 2 is the CLI's usage error; its first line is `hopbench: <what is wrong>`.
    const first = out.stderr.split('\n')[0];
    throw new UsageError(first.startsWith(CLI_PREFIX) ? first.slice(CLI_PREFIX.length) : first);
  }
  if (out.status !== 0 && out.status !== 1) {
    throw new Error(`${bin} tasks ${path} failed (exit ${out.status}): ${out.stderr.trim()}`);
  }
  /** @type {TaskEntry[]} */
  const tasks = [];
  /** @type {{file: string, error: string}[]} */
  const bad = [];
  for (const text of out.stdout.split('\n').filter(Boolean)) {
    const line = JSON.parse(text);
    if (line.error) bad.push({ file: line.file, error: line.error });
    else {
      tasks.push({
        file: line.file, fileName: line.file_name, id: line.id, hops: line.hops, startUrls: line.start_urls ?? [], referenceSteps: line.reference_steps ?? 0, siteHosts: line.site_hosts ?? [],
      });
    }
  }
  return { tasks, bad };
}

/**
 * Tasks i, i+n, i+2n, ... (1-based) of the full list, so shards split any suite evenly.
 * @template T
 * @param {T[]} tasks
 * @param {{ index: number, count: number } | null} shard
 */
export function selectShard(tasks, shard) {
  if (!shard) return tasks;
  return tasks.filter((_, k) => k % shard.count === shard.index - 1);
}

/**
 * Ids that occur more than once: their results would overwrite each other.
 * @param {{ id: string, file: string }[]} tasks
 */
export function repeatedIds(tasks) {
  /** @type {Map<string, string[]>} */
  const seen = new Map();
  for (const t of tasks) seen.set(t.id, [...(seen.get(t.id) ?? []), t.file]);
  return [...seen].filter(([, files]) => files.length > 1).map(([id, files]) => ({ id, files }));
}
