// `--memory-sweep A..B`: the paper's memory ablation (MMInA Fig. 5) in one command.
// The tasks run once per K into DIR/k<K>, each folder with its own memory (the last K
// finished tasks of that run, or the K most similar with --memory-policy similar) and
// its own report; then one report over all of them, whose by-K table compares them.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * @param {import('./args.mjs').Options & { memorySweep: {from: number, to: number} }} options
 *   parsed arguments with `memorySweep: {from, to}`
 * @param {string} out the sweep folder
 * @param {(options: import('./args.mjs').Options) => Promise<number>} runOne runs one configuration
 * @param {{ nativeBin: string, say: (line: string) => void }} tools
 * @returns {Promise<number>} the exit status
 */
export async function runSweep(options, out, runOne, { nativeBin, say }) {
  const folders = [];
  let status = 0;
  for (let k = options.memorySweep.from; k <= options.memorySweep.to; k += 1) {
    const folder = join(out, `k${k}`);
    say(`memory sweep: K = ${k} into ${folder}`);
    const code = await runOne({ ...options, memory: k, memorySweep: null, out: folder });
    if (code === 130) return code;
    if (code !== 0) status = 1;
    folders.push(folder);
  }
  const report = spawnSync(nativeBin, ['report', ...folders, '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (report.status !== 0) return 1;
  say(`report: ${join(out, 'report.html')}`);
  return status;
}
