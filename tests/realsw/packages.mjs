// The Debian packages the real-software tier runs: Kiwix (kiwix-serve, zimwriterfs)
// and MediaWiki on SQLite served by PHP's built-in server. `ensurePackages()` checks
// for each program, installs what is missing with apt-get (root only), and otherwise
// returns the reason the tier cannot run, which the tests print and skip with:
// a missing package is never a silent pass.
//
//   const packages = await ensurePackages();   // { ok: true } | { ok: false, reason }
//
// Installing is idempotent: nothing present is installed again, and `apt-get update`
// runs only when something is missing (a fresh machine may have no package lists).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';

/** What each package must provide; `present()` checks it without side effects. */
export const PACKAGES = Object.freeze([
  { name: 'kiwix-tools', provides: 'kiwix-serve', present: () => onPath('kiwix-serve') },
  { name: 'zim-tools', provides: 'zimwriterfs', present: () => onPath('zimwriterfs') },
  {
    name: 'mediawiki',
    provides: '/usr/share/mediawiki (MediaWiki 1.39)',
    present: () => existsSync('/usr/share/mediawiki/maintenance/install.php'),
  },
  { name: 'php-cli', provides: 'php (for `php -S`)', present: () => onPath('php') },
  {
    name: 'php-sqlite3',
    provides: "PHP's pdo_sqlite",
    present: () => onPath('php') && run('php', ['-r', 'exit(extension_loaded("pdo_sqlite") ? 0 : 1);']).status === 0,
  },
]);

/** The install command a person can run by hand (also printed in skip reasons). */
export const INSTALL_COMMAND =
  `apt-get install -y --no-install-recommends ${PACKAGES.map((p) => p.name).join(' ')}`;

/** @param {string} program */
const onPath = (program) => run('sh', ['-c', `command -v ${program}`]).status === 0;

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function run(command, args, options = {}) {
  return spawnSync(command, args, { encoding: 'utf8', ...options });
}

/** Packages whose program or files are missing. */
export function missingPackages() {
  return PACKAGES.filter((p) => !p.present());
}

let outcome;

/**
 * Makes sure every package is there, installing the missing ones once per process.
 * @returns {Promise<{ ok: true, installed: string[] } | { ok: false, reason: string }>}
 */
export async function ensurePackages() {
  outcome ??= install();
  return outcome;
}

async function install() {
  const missing = missingPackages();
  if (missing.length === 0) return { ok: true, installed: [] };
  const names = missing.map((p) => p.name);
  const what = missing.map((p) => `${p.name} (${p.provides})`).join(', ');
  if (!onPath('apt-get')) {
    return { ok: false, reason: `missing ${what}, and there is no apt-get to install them` };
  }
  // HOPBENCH_REALSW_NOT_ROOT=1: behave as a user who may not install, whoever runs it
  // (realsw-skip.test.mjs checks that path as root, from a checkout no other user may
  // read: a clone in root's home folder or a mktemp -d folder).
  if (process.getuid?.() !== 0 || process.env.HOPBENCH_REALSW_NOT_ROOT === '1') {
    return { ok: false, reason: `missing ${what}; not root, so not installing: run as root, or sudo ${INSTALL_COMMAND}` };
  }
  // Another apt (another test file, the system) may hold the lock for a while: wait for
  // it instead of failing at once. --no-install-recommends: MediaWiki's recommends pull
  // in ~50 more packages (imagemagick, ...) that the tier does not use.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  /** @type {[string, string[]][]} */
  const steps = [
    ['update', ['-q', ...lock, 'update']],
    ['install', ['-y', '-q', ...lock, '--no-install-recommends', 'install', ...names]],
  ];
  for (const [step, args] of steps) {
    const result = run('apt-get', args, { env, maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) {
      const tail = `${result.stderr || result.stdout || result.error?.message || ''}`.trim().split('\n').slice(-3).join(' | ');
      return { ok: false, reason: `apt-get ${step} failed (exit ${result.status}) installing ${names.join(' ')}: ${tail}` };
    }
  }
  const still = missingPackages();
  if (still.length > 0) {
    return { ok: false, reason: `apt-get installed ${names.join(' ')} but ${still.map((p) => p.provides).join(', ')} is still missing` };
  }
  return { ok: true, installed: names };
}

/**
 * `describe(name, options, body)` when the packages are there; otherwise the reason is
 * printed ("realsw: skipped: ...") and a single skipped test of that name stands for the
 * suite, so node's totals count it as skipped (a skipped describe counts as nothing).
 * @param {string} name
 * @param {import('node:test').TestOptions} options
 * @param {() => void} body
 */
export async function describeTier(name, options, body) {
  const packages = await ensurePackages();
  if (packages.ok) return describe(name, options, body);
  const reason = `realsw: skipped: ${packages.reason}`;
  console.log(reason);
  return test(name, { skip: reason });
}
