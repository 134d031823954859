#!/usr/bin/env node
// Dev tool for task authors: prints the observation text the model (and the replay
// agent) would get for one or more pages, through the real extension, so a
// reference_trajectory can name its elements `{role 'name'}` exactly as shown.
//
//   node runner/observe.mjs URL... [--whole-page] [--grep TEXT]
//
// --whole-page  every element of the page, not just the viewport (replay observes
//               this way, so use it when checking a trajectory's targets)
// --grep TEXT   print only the lines containing TEXT (case-insensitive)
//
// Needs dist/ (./build.sh) and the sites being looked at (./build.sh sandbox).

import { parseArgs as parseArgsUtil } from 'node:util';
import { launchExtension, observe, tabIdOf } from './driver.mjs';

const USAGE = 'usage: node runner/observe.mjs URL... [--whole-page] [--grep TEXT]';

/**
 * `URL... [--whole-page] [--grep TEXT]`; a usage error throws with the usage.
 * @param {string[]} argv
 */
function parseArgs(argv) {
  /** @type {{ urls: string[], wholePage: boolean, grep: string | null }} */
  const opts = { urls: [], wholePage: false, grep: null };
  // Not strict, and by tokens in order: the first problem is the one reported, in
  // this tool's words, and `--grep` takes the next argument whatever it looks like.
  const { tokens } = parseArgsUtil({
    args: argv,
    options: { 'whole-page': { type: 'boolean' }, grep: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    const arg = argv[token.index];
    if (token.kind === 'positional') opts.urls.push(token.value);
    // `-x` is not an option of this tool: taken as a URL, it fails as one below.
    else if (token.kind === 'option' && !arg.startsWith('--') && arg !== '-h') opts.urls.push(arg);
    else if (token.kind === 'option' && token.name === 'whole-page' && arg === '--whole-page') opts.wholePage = true;
    else if (token.kind === 'option' && token.name === 'grep' && arg === '--grep') {
      if (token.value === undefined) throw new Error(`--grep needs a value\n${USAGE}`);
      opts.grep = token.value;
    } else if (token.kind === 'option' && token.name === 'help' && (arg === '--help' || arg === '-h')) {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  if (opts.urls.length === 0) throw new Error(USAGE);
  for (const url of opts.urls) {
    if (!/^https?:\/\//.test(url)) throw new Error(`not an http(s) URL: ${url}\n${USAGE}`);
  }
  return opts;
}

/** Opens `url` in its own tab and returns its observation (the page's final URL too). */
/**
 * @param {import('./driver.mjs').Extension} ext
 * @param {import('playwright-core').Page} extPage
 * @param {string} url
 * @param {boolean} wholePage
 */
async function observeUrl(ext, extPage, url, wholePage) {
  const page = await ext.openPage(url);
  try {
    const tabId = await tabIdOf(extPage, page.url());
    return await observe(extPage, tabId, { mode: 'text', wholePage });
  } finally {
    await page.close();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const ext = await launchExtension();
  try {
    const extPage = await ext.openExtensionPage('popup.html');
    for (const url of opts.urls) {
      const obs = await observeUrl(ext, extPage, url, opts.wholePage);
      /** @type {string[]} */
      let lines = obs.text.split('\n');
      if (opts.grep !== null) {
        const needle = opts.grep.toLowerCase();
        lines = lines.filter((l) => l.toLowerCase().includes(needle));
      }
      // The URL line is what the evaluator sees after redirects (events, food search).
      console.log(`URL: ${obs.url}`);
      console.log(lines.join('\n'));
      console.log('');
    }
  } finally {
    await ext.close();
  }
}

main().catch((error) => {
  console.error(`observe.mjs: ${error.message}`);
  process.exit(1);
});
