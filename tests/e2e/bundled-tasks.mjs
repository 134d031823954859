// Bundled tasks (tasks/) for a test's own sandbox on other ports: their URLs name the
// default ports 8600-8610 literally (start URLs, conditions, goto steps), so a copy
// with every 127.0.0.1:86NN moved to the test's port base runs against that sandbox
// exactly as the original runs against the default one.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

const DEFAULT_BASE = 8600;

/**
 * Writes `tasks/<name>.json` for each name into `dir`, on ports `base`..`base + 10`.
 * @returns {{ id: string, file: string, steps: number }[]} the tasks written
 * @param {string[]} names
 * @param {string} dir
 * @param {number} base
 */
export function copyBundledTasks(names, dir, base) {
  return names.map((name) => {
    const text = movePorts(readFileSync(join(repoRoot, 'tasks', `${name}.json`), 'utf8'), base);
    const file = join(dir, `${name}.json`);
    writeFileSync(file, text);
    const task = JSON.parse(text);
    return { id: task.id, file, steps: task.reference_trajectory?.length ?? 0 };
  });
}

/**
 * A task's text with every sandbox address 127.0.0.1:86NN moved to the port base `base`.
 * @param {string} text
 * @param {number} base
 */
export function movePorts(text, base) {
  return text.replace(/127\.0\.0\.1:86(\d\d)\b/g, (_, site) => `127.0.0.1:${base + Number(`86${site}`) - DEFAULT_BASE}`);
}
