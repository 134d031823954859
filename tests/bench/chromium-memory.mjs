// The resident memory of one Chromium: the browser process started on a profile
// folder and every process below it (renderers, GPU, utilities, zygotes), read with
// ps. RSS counts pages shared between processes once per process, as `ps` and the
// issue's figures do.

import { execFileSync } from 'node:child_process';

/**
 * @typedef {{ total: number, browser: number, renderers: number, extension: number, other: number,
 *   processes: number }} Memory figures in MB
 */

/** @returns {{ pid: number, ppid: number, rss: number, args: string }[]} */
function processes() {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), rss: Number(m[3]), args: m[4] }));
}

/**
 * @param {string} profileDir the browser's `--user-data-dir`
 * @returns {Memory}
 */
export function chromiumMemory(profileDir) {
  const all = processes();
  // The browser itself: the one on this profile without a --type (children have one).
  const browser = all.find((p) => p.args.includes(`--user-data-dir=${profileDir}`) && !p.args.includes('--type='));
  if (!browser) throw new Error(`no Chromium runs on profile ${profileDir}`);
  /** @type {typeof all} */
  const tree = [browser];
  for (let i = 0; i < tree.length; i += 1) {
    const parent = tree[i].pid;
    tree.push(...all.filter((p) => p.ppid === parent));
  }
  const mb = (/** @type {typeof all} */ list) => Math.round(list.reduce((sum, p) => sum + p.rss, 0) / 1024);
  const renderers = tree.filter((p) => p.args.includes('--type=renderer'));
  const extension = renderers.filter((p) => p.args.includes('--extension-process'));
  return {
    total: mb(tree),
    browser: mb([browser]),
    renderers: mb(renderers.filter((p) => !extension.includes(p))),
    extension: mb(extension),
    other: mb(tree.filter((p) => p !== browser && !renderers.includes(p))),
    processes: tree.length,
  };
}

/**
 * Samples `chromiumMemory` every `everyMs` while `work` runs; resolves to its result
 * and the highest figures seen (each figure's own peak).
 * @template T
 * @param {string} profileDir
 * @param {() => Promise<T>} work
 * @param {number} [everyMs]
 * @returns {Promise<{ result: T, peak: Memory }>}
 */
export async function peakMemoryDuring(profileDir, work, everyMs = 250) {
  let peak = chromiumMemory(profileDir);
  let ended = false;
  const sample = () => {
    if (ended) return;
    try {
      const now = chromiumMemory(profileDir);
      peak = /** @type {Memory} */ (Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, Math.max(v, now[/** @type {keyof Memory} */ (k)])])));
    } catch (error) {
      // The browser ended (a crash): the peak so far stands, and the work says why.
      ended = true;
      console.error(`no more memory samples: ${error instanceof Error ? error.message : error}`);
    }
  };
  const timer = setInterval(sample, everyMs);
  try {
    const result = await work();
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}
