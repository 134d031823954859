// Kiwix, the way MMInA serves Wikipedia: a ZIM file built with Debian's zimwriterfs
// from our city articles, served by Debian's kiwix-serve (3.3.0 on Debian 12).
//
//   const kiwix = await startKiwix({ dir, wikiOrigin });  // dir: a temp folder we own
//   kiwix.base                  // http://127.0.0.1:<port>/kiwix
//   kiwix.article('Tokyo')      // http://127.0.0.1:<port>/kiwix/cities/A/Tokyo
//   await kiwix.stop();
//
// What kiwix-serve 3.3.0 serves (checked in realsw-servers.test.mjs):
//   <base>/                         the library: one card per ZIM
//   <base>/cities                   302 to the ZIM's welcome page, <base>/cities/A/Main_Page
//   <base>/cities/A/<Article>       an article, a full page with Kiwix's toolbar on top
//                                   (search box, home and random buttons); 3.3.0 has no
//                                   /viewer#cities/A/<Article> frame (that came with 3.4)
//   <base>/search?content=cities&pattern=<q>   full-text results
//   <base>/suggest?content=cities&term=<q>     the search box's suggestions (JSON)
// Entries live under A/ (articles) and I/ (pictures), as in Wikipedia ZIMs. Not only
// for the looks: libzim leaves an entry whose title equals its path out of the title
// index, so a flat `Tokyo` would never be suggested by the search box.
// `-r /kiwix` puts "kiwix" into every URL, as library.kiwix.org's host does for MMInA,
// so the importer's `kiwix` checkpoint sees the Kiwix pages as Kiwix whatever the host.

import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CITIES, articlePath, sections } from './cities.mjs';
import { png, towerPicture } from './png.mjs';
import { freePort, startServer } from './servers.mjs';

/** The host in Kiwix URLs: a name only the browser resolves (Chromium maps every
 * *.localhost name to loopback; node's resolver does not), as the issue's
 * `http://kiwix.localhost:8201/` was. The runner lets the browser judge whether a
 * start page loads, so these tasks run. The server itself listens on 127.0.0.1. */
export const KIWIX_HOST = 'kiwix.localhost';

/** The ZIM's file stem, which kiwix-serve uses as the book's name in URLs. */
export const BOOK = 'cities';
const ROOT = '/kiwix';

/** @param {string} text */
const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {import('./cities.mjs').City} city
 * @param {string} wikiOrigin
 */
function articleHtml(city, wikiOrigin) {
  const others = CITIES.filter((c) => c !== city);
  const picture = `../I/${articlePath(city.tower)}.png`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(city.title)}</title></head>
<body>
<h1>${escape(city.title)}</h1>
<p>${escape(city.summary)}</p>
<p><img src="${picture}" alt="${escape(city.tower)}" width="96" height="96"></p>
<h2>Contents</h2>
<ul>${sections(city).map((s) => `<li><a href="#${s.id}">${escape(s.heading)}</a></li>`).join('')}</ul>
${sections(city).map((s) => `<h2 id="${s.id}">${escape(s.heading)}</h2>\n<p>${escape(s.text)}</p>`).join('\n')}
<h2>See also</h2>
<ul>${others.map((c) => `<li><a href="${articlePath(c.title)}">${escape(c.title)}</a></li>`).join('')}</ul>
<h2>External links</h2>
<ul><li><a href="${wikiOrigin}/wiki/${articlePath(city.title)}">${escape(city.title)} on Citywiki</a></li></ul>
</body></html>
`;
}

function welcomeHtml() {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Cities of the world</title></head>
<body>
<h1>Cities of the world</h1>
<p>An offline encyclopedia of a few cities and their towers.</p>
<ul>${CITIES.map((c) => `<li><a href="${articlePath(c.title)}">${escape(c.title)}</a></li>`).join('')}</ul>
</body></html>
`;
}

/**
 * Writes the HTML tree and packs it with zimwriterfs into `<dir>/cities.zim`.
 * @param {string} dir
 * @param {{ wikiOrigin: string }} options
 */
export function buildZim(dir, { wikiOrigin }) {
  const html = join(dir, 'html');
  mkdirSync(join(html, 'A'), { recursive: true });
  mkdirSync(join(html, 'I'), { recursive: true });
  // Article files have no extension, like Wikipedia ZIMs' paths; zimwriterfs detects
  // their type from the content.
  writeFileSync(join(html, 'A', 'Main_Page'), welcomeHtml());
  for (const city of CITIES) {
    writeFileSync(join(html, 'A', articlePath(city.title)), articleHtml(city, wikiOrigin));
    writeFileSync(join(html, 'I', `${articlePath(city.tower)}.png`), towerPicture(city.colour));
  }
  writeFileSync(join(html, 'illustration.png'), png(48, 48, () => [205, 40, 30]));
  const zim = join(dir, `${BOOK}.zim`);
  const result = spawnSync('zimwriterfs', [
    '--welcome=A/Main_Page', '--illustration=illustration.png', '--language=eng',
    '--title=Cities of the world', '--description=A few cities and their towers',
    '--creator=hopbench', '--publisher=hopbench', `--name=hopbench_${BOOK}`,
    html, zim,
  ], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`zimwriterfs failed (exit ${result.status}) building ${zim}:\n${result.stderr}${result.stdout}`);
  }
  return zim;
}

/**
 * Builds the ZIM in `dir` and serves it on a free port of 127.0.0.1.
 * @param {{ dir: string, wikiOrigin: string }} options
 */
export async function startKiwix({ dir, wikiOrigin }) {
  const zim = buildZim(dir, { wikiOrigin });
  const port = await freePort();
  const server = await startServer('kiwix-serve', 'kiwix-serve', [
    '--address=127.0.0.1', `--port=${port}`, `--urlRootLocation=${ROOT}`,
    // Exit with us if the test process dies without stopping it.
    `--attachToProcess=${process.pid}`, zim,
  ], { readyUrl: `http://127.0.0.1:${port}${ROOT}/` });
  const base = `http://${KIWIX_HOST}:${port}${ROOT}`;
  return {
    port,
    base,
    welcome: `${base}/${BOOK}/A/Main_Page`,
    /** @param {string} title */
    article: (title) => `${base}/${BOOK}/A/${articlePath(title)}`,
    output: server.output,
    stop: server.stop,
  };
}
