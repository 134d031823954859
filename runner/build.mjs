// Builds what the runner needs: the extension in dist/ when missing, and the native CLI
// (`hopbench tasks`, `hopbench report`). ./build.sh run does both itself and passes
// HOPBENCH_BIN; run directly (node runner/run.mjs), the runner brings the CLI up to date
// with cargo (a second or so when nothing changed), so an old binary never writes a
// report in an old format.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { distDir, nativeBin, repoRoot } from './paths.mjs';

/** @param {(line: string) => void} log */
export function ensureBuilt(log) {
  if (!existsSync(join(distDir, 'manifest.json'))) {
    log(`no extension in ${distDir}: building it (./build.sh build)`);
    run(join(repoRoot, 'build.sh'), ['build']);
  }
  if (process.env.HOPBENCH_BIN) {
    if (!existsSync(nativeBin)) throw new Error(`HOPBENCH_BIN names ${nativeBin}, which does not exist`);
    return;
  }
  log('cargo build --profile native --bin hopbench (the native CLI, if sources changed)');
  run('cargo', ['build', '--quiet', '--profile', 'native', '-p', 'hopbench-cli', '--bin', 'hopbench', '--manifest-path', join(repoRoot, 'Cargo.toml')]);
}

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const out = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (out.error) throw new Error(`cannot run ${command}: ${out.error.message}`);
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${out.status})`);
}
