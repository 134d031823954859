// Builds what the runner needs when it is missing: the extension in dist/ and the
// native CLI (`hopbench tasks`, `hopbench report`). ./build.sh run has done both
// already; running runner/run.mjs directly still works.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { distDir, nativeBin, repoRoot } from './paths.mjs';

export function ensureBuilt(log) {
  if (!existsSync(join(distDir, 'manifest.json'))) {
    log(`no extension in ${distDir}: building it (./build.sh build)`);
    run(join(repoRoot, 'build.sh'), ['build']);
  }
  if (!existsSync(nativeBin)) {
    log(`no native CLI at ${nativeBin}: building it (cargo build --release --bin hopbench)`);
    run('cargo', ['build', '--release', '--bin', 'hopbench', '--manifest-path', join(repoRoot, 'Cargo.toml')]);
  }
}

function run(command, args) {
  const out = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (out.error) throw new Error(`cannot run ${command}: ${out.error.message}`);
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${out.status})`);
}
