// Writes the tier's task templates (tests/realsw/tasks/) into a run folder with the
// servers' URLs filled in, and fills the same placeholders into the agent's steps.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEMPLATES = resolve(fileURLToPath(new URL('./tasks/', import.meta.url)));

/**
 * Replaces `{{kiwix}}` and `{{wiki}}`; an unknown placeholder is an error, not a URL.
 * @param {string} text
 * @param {{ kiwix: string, wiki: string }} urls
 */
export function fill(text, { kiwix, wiki }) {
  /** @type {Record<string, string>} */
  const urls = { kiwix, wiki };
  return text.replace(/\{\{(\w+)\}\}/g, (whole, /** @type {string} */ name) => {
    const value = urls[name];
    if (value === undefined) throw new Error(`unknown placeholder ${whole} in: ${text.slice(0, 80)}`);
    return value;
  });
}

/**
 * Writes each case's task file under `dir`, keeping MMInA's <domain>/<i>.json layout.
 * @param {string} dir
 * @param {readonly { file: string }[]} cases
 * @param {{ kiwix: string, wiki: string }} urls
 */
export function writeTasks(dir, cases, urls) {
  for (const { file } of cases) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, fill(readFileSync(join(TEMPLATES, file), 'utf8'), urls));
  }
  return dir;
}
