// The native CLI for browser tests that need `hopbench tasks` / `hopbench report`:
// HOPBENCH_BIN, else the build `./build.sh build` makes and the runner uses
// (target/native/hopbench), brought up to date with the same cargo command.
//
// It used to build the debug binary (`cargo build -p hopbench-cli`): after `cargo test
// --workspace` that is a different feature set, so on a fresh clone the first test to
// ask (authoring's) compiled the whole core inside its 240 s limit, blocking the test
// process for 220 s on a loaded machine. The native build is the one the test command
// has already made, so this is a no-op there.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

/** @type {string} */ let built;

export function hopbenchBin() {
  if (process.env.HOPBENCH_BIN) return process.env.HOPBENCH_BIN;
  if (!built) {
    // build.sh native_build: the same profile and package, so the same fingerprint.
    const out = spawnSync('cargo', ['build', '--quiet', '--profile', 'native', '-p', 'hopbench-cli', '--bin', 'hopbench'], { cwd: repoRoot, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`cargo build --profile native --bin hopbench failed: ${out.stderr}`);
    built = join(repoRoot, 'target', 'native', 'hopbench');
  }
  return built;
}
