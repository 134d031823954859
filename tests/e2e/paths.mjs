// Where the e2e tests find the repository and the built extension.

import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The unpacked extension built by `./build.sh`; HOPBENCH_DIST overrides it. */
export const distDir = resolve(process.env.HOPBENCH_DIST ?? join(repoRoot, 'dist'));

/** Debian's chromium; HOPBENCH_CHROMIUM overrides it (same variable as build.sh). */
export const chromiumPath = process.env.HOPBENCH_CHROMIUM ?? '/usr/bin/chromium';

/** The `version` of the [workspace.package] section of Cargo.toml (every crate's). */
export function cargoPackageVersion() {
  const toml = readFileSync(join(repoRoot, 'Cargo.toml'), 'utf8');
  const pkg = toml.split(/^\[/m).find((section) => section.startsWith('workspace.package]'));
  const match = pkg?.match(/^version\s*=\s*"([^"]+)"/m);
  if (!match) throw new Error('no version in the [workspace.package] section of Cargo.toml');
  return match[1];
}

/**
 * Where a test saves a screenshot of the README's: `target/screenshots/` (build output,
 * so running the tests leaves the checkout as it was), or `docs/images/` with
 * HOPBENCH_UPDATE_DOC_IMAGES=1 to refresh the pictures the README shows.
 * @param {string} name file name, e.g. `panel-idle.png`
 */
export function docImagePath(name) {
  const dir = process.env.HOPBENCH_UPDATE_DOC_IMAGES === '1' ? join(repoRoot, 'docs', 'images') : join(repoRoot, 'target', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
