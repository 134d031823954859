// The native CLI for browser tests that need `hopbench tasks` / `hopbench report`:
// HOPBENCH_BIN, else the debug build (made here if `cargo test` has not made it yet).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

/** @type {string} */ let built;

export function hopbenchBin() {
  if (process.env.HOPBENCH_BIN) return process.env.HOPBENCH_BIN;
  if (!built) {
    const out = spawnSync('cargo', ['build', '--quiet', '-p', 'hopbench-cli', '--bin', 'hopbench'], { cwd: repoRoot, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`cargo build --bin hopbench failed: ${out.stderr}`);
    built = join(repoRoot, 'target', 'debug', 'hopbench');
  }
  return built;
}
