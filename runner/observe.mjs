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

import { launchExtension, observe, tabIdOf } from './driver.mjs';

const USAGE = 'usage: node runner/observe.mjs URL... [--whole-page] [--grep TEXT]';

function parseArgs(argv) {
  const opts = { urls: [], wholePage: false, grep: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--whole-page') opts.wholePage = true;
    else if (arg === '--grep') {
      opts.grep = argv[(i += 1)];
      if (opts.grep === undefined) throw new Error(`--grep needs a value\n${USAGE}`);
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else opts.urls.push(arg);
  }
  if (opts.urls.length === 0) throw new Error(USAGE);
  for (const url of opts.urls) {
    if (!/^https?:\/\//.test(url)) throw new Error(`not an http(s) URL: ${url}\n${USAGE}`);
  }
  return opts;
}

/** Opens `url` in its own tab and returns its observation (the page's final URL too). */
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
