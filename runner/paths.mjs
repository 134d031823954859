// Where the runner finds things, and the file names it gives each task's files.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The unpacked extension built by `./build.sh`; HOPBENCH_DIST overrides it. */
export const distDir = resolve(process.env.HOPBENCH_DIST ?? join(repoRoot, 'dist'));

/** Debian's chromium; HOPBENCH_CHROMIUM overrides it (same variable as build.sh). */
export const chromiumPath = process.env.HOPBENCH_CHROMIUM ?? '/usr/bin/chromium';

/** The native CLI (`hopbench tasks`, `hopbench report`); HOPBENCH_BIN overrides it. */
export const nativeBin = resolve(
  process.env.HOPBENCH_BIN ?? join(repoRoot, 'target', 'native', 'hopbench'),
);

const MAX_STEM = 180;
const CUT_AT = 160;

/**
 * The file name stem of a task's trajectory files, the same rule as the report's
 * (src/report/stem.rs): bytes outside [A-Za-z0-9_-] become `~XX`; a stem over 180
 * bytes is cut to 160 and given `~` + the FNV-1a 64-bit hash of the id in hex.
 * @param {string} id
 */
export function taskFileStem(id) {
  const bytes = Buffer.from(id, 'utf8');
  let stem = '';
  for (const byte of bytes) {
    const c = String.fromCharCode(byte);
    stem += /[A-Za-z0-9_-]/.test(c) ? c : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (stem.length > MAX_STEM) {
    stem = `${stem.slice(0, CUT_AT)}~${fnv1a64(bytes).toString(16).padStart(16, '0')}`;
  }
  return stem;
}

/**
 * The stem of one attempt's files, as the report finds them (src/report/stem.rs
 * `attempt_file_stem`): the task's stem for attempt 1, `<stem>.attempt-<k>` after.
 * @param {string} id
 * @param {number} attempt
 */
export function attemptFileStem(id, attempt) {
  const stem = taskFileStem(id);
  return attempt > 1 ? `${stem}.attempt-${attempt}` : stem;
}

/** @param {Buffer} bytes */
function fnv1a64(bytes) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}
