// The runner's procedural memory: DIR/memory.jsonl holds one memory record per
// finished task of the run folder (the extension's core writes each record; the runner
// only appends it), in the order the tasks finished. Before each task with --memory K
// the whole file goes to the extension with START_RUN, and the core chooses K records.

import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const MEMORY_FILE = 'memory.jsonl';

/**
 * The records of DIR/memory.jsonl, oldest first. A line that is not JSON stops the
 * run (naming file:line): a damaged memory would silently change what runs are shown.
 * @param {string} dir
 * @returns {import('./extension.mjs').ExtensionData[]}
 */
export function readMemoryPool(dir) {
  const file = join(dir, MEMORY_FILE);
  if (!existsSync(file)) return [];
  /** @type {import('./extension.mjs').ExtensionData[]} */
  const records = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        records.push(JSON.parse(line));
      } catch (error) {
        throw new Error(`${file}:${index + 1} is not valid JSON (${/** @type {Error} */ (error).message}); fix or remove that line`, {
          cause: error,
        });
      }
    });
  return records;
}

/**
 * Appends one record and flushes it, like a result line.
 * @param {string} dir
 * @param {unknown} record
 */
export function appendMemory(dir, record) {
  const fd = openSync(join(dir, MEMORY_FILE), 'a');
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * START_RUN overrides for one task: the pool when memory is on.
 * @param {import('./extension.mjs').ExtensionData} overrides
 * @param {string} dir
 */
export function withMemory(overrides, dir) {
  return overrides.memory_k > 0 ? { ...overrides, memory_records: readMemoryPool(dir) } : overrides;
}

/**
 * The memory record an exported trajectory carries (null when the run left none).
 * @param {import('./extension.mjs').ExtensionData | null} trajectory
 */
export function memoryRecordOf(trajectory) {
  return trajectory?.run?.memoryRecord ?? null;
}
