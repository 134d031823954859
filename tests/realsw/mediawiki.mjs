// MediaWiki 1.39 from Debian's `mediawiki` package, on SQLite, in a temp folder:
// install.php writes LocalSettings.php and the database into `dir` (Debian's code in
// /usr/share/mediawiki is used as it is, read-only), edit.php imports the city pages,
// and PHP's built-in server serves it with a small router for Wikipedia's short URLs.
//
//   const wiki = await startMediaWiki({ dir });
//   wiki.origin                 // http://127.0.0.1:<port>
//   wiki.article('Tokyo')       // http://127.0.0.1:<port>/wiki/Tokyo
//   await wiki.stop();
//
// URLs (checked in realsw-servers.test.mjs):
//   /wiki/<Title>                                   an article (/ redirects to /wiki/Main_Page)
//   /index.php?search=<q>&title=Special%3ASearch&go=Go        302 to /wiki/<q> if it exists
//   /index.php?search=<q>&title=Special%3ASearch&fulltext=Search  full-text results
//   /api.php?action=opensearch&search=<prefix>      the search box's suggestions
// The search box (Vector) submits `fulltext` on Enter unless its suggestion script has
// seen the text being typed; then Enter goes to the article. That is the difference
// between typing key by key and setting the value (mediawiki-typing.test.mjs).

import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CITIES, articlePath, sections } from './cities.mjs';
import { freePort, startServer } from './servers.mjs';

/** Debian's MediaWiki code, shared by every wiki we install. */
export const MEDIAWIKI_CODE = '/usr/share/mediawiki';
export const SITE_NAME = 'Citywiki';
const ROUTER = resolve(fileURLToPath(new URL('./mediawiki-router.php', import.meta.url)));

/**
 * @param {import('./cities.mjs').City} city
 */
function cityWikitext(city) {
  const others = CITIES.filter((c) => c !== city).map((c) => `* [[${c.title}]]`).join('\n');
  const body = sections(city).map((s) => `== ${s.heading} ==\n${s.text}`).join('\n\n');
  return `'''${city.title}''': ${city.summary}\n\n${body}\n\n== See also ==\n${others}\n`;
}

function mainPageWikitext() {
  const list = CITIES.map((c) => `* [[${c.title}]]`).join('\n');
  return `Welcome to ${SITE_NAME}, a wiki about a few cities.\n\n${list}\n`;
}

/**
 * Runs a maintenance script against the wiki whose settings are `config`.
 * @param {string} config
 * @param {string} script
 * @param {string[]} args
 * @param {string} [input]
 */
function maintenance(config, script, args, input) {
  const result = spawnSync('php', [join(MEDIAWIKI_CODE, 'maintenance', script), ...args], {
    cwd: MEDIAWIKI_CODE,
    env: { ...process.env, MW_CONFIG_FILE: config },
    input,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`MediaWiki maintenance/${script} ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

/**
 * install.php into `dir` for a wiki served at `origin`; returns the settings file.
 * @param {string} dir
 * @param {string} origin
 */
export function installWiki(dir, origin) {
  const config = join(dir, 'LocalSettings.php');
  mkdirSync(join(dir, 'cache'), { recursive: true });
  maintenance(config, 'install.php', [
    '--dbtype=sqlite', `--dbpath=${join(dir, 'data')}`, '--dbname=citywiki',
    `--confpath=${dir}`, `--server=${origin}`, '--scriptpath=', '--lang=en',
    '--skins=Vector', `--pass=${randomBytes(12).toString('hex')}`, '--quiet',
    SITE_NAME, 'Admin',
  ]);
  // Wikipedia's short article URLs (the router sends /wiki/ to index.php), and a cache
  // folder of our own: Debian's default points into /var/lib/mediawiki.
  appendFileSync(config, `
$wgArticlePath = "/wiki/$1";
$wgCacheDirectory = ${JSON.stringify(join(dir, 'cache'))};
$wgShowExceptionDetails = true;
`);
  for (const city of CITIES) {
    maintenance(config, 'edit.php', ['--summary=hopbench test page', articlePath(city.title)], cityWikitext(city));
  }
  maintenance(config, 'edit.php', ['--summary=hopbench test page', 'Main_Page'], mainPageWikitext());
  // Link tables and the search index are updated by queued jobs: run them now, so the
  // first page view does not.
  maintenance(config, 'runJobs.php', ['--quiet']);
  return config;
}

/**
 * Installs a wiki in `dir` and serves it on a free port of 127.0.0.1.
 * @param {{ dir: string }} options
 */
export async function startMediaWiki({ dir }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = installWiki(dir, origin);
  const server = await startServer('php -S (MediaWiki)', 'php', [
    '-S', `127.0.0.1:${port}`, '-t', MEDIAWIKI_CODE, ROUTER,
  ], { readyUrl: `${origin}/wiki/Main_Page`, env: { MW_CONFIG_FILE: config }, cwd: MEDIAWIKI_CODE });
  return {
    port,
    origin,
    mainPage: `${origin}/wiki/Main_Page`,
    /** @param {string} title */
    article: (title) => `${origin}/wiki/${articlePath(title)}`,
    output: server.output,
    stop: server.stop,
  };
}
