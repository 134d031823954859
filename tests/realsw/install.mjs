// `node tests/realsw/install.mjs`: installs the tier's Debian packages when missing
// (build.sh's realsw stage runs it before the tests, so the test files never race for
// apt's lock) and prints what happened. Exit status 0 also when the tier is skipped:
// the tests then print the same reason and skip visibly.

import { PACKAGES, ensurePackages } from './packages.mjs';

const started = Date.now();
const packages = await ensurePackages();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (!packages.ok) {
  console.log(`realsw: skipped: ${packages.reason}`);
} else if (packages.installed.length > 0) {
  console.log(`realsw: installed ${packages.installed.join(' ')} with apt-get in ${seconds} s`);
} else {
  console.log(`realsw: packages present: ${PACKAGES.map((p) => p.name).join(' ')}`);
}
