// The real-model tier's web site and tasks, written into a temp folder at test time:
// a museum's page with a picture (so an image observation mode sends an image), a
// page of opening hours, and a long page of exhibits whose observation overflows a
// small context. Served by the e2e tests' static server (tests/e2e/sites.mjs).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSites } from '../e2e/sites.mjs';
import { towerPicture } from '../realsw/png.mjs';

const page = (/** @type {string} */ title, /** @type {string} */ body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="icon" href="data:,"></head><body>${body}</body></html>\n`;

/**
 * @param {number} exhibits how many exhibit lines the long page lists
 */
function pages(exhibits) {
  const list = Array.from(
    { length: exhibits },
    (_, i) => `<li><a href="/exhibit-${i + 1}.html">Exhibit ${i + 1}: a brass lamp lens from the harbour light of ${1850 + i}</a></li>`,
  ).join('\n');
  return {
    'index.html': page(
      'Harbor Light Museum',
      '<h1>Harbor Light Museum</h1><img src="/tower.png" alt="The harbour light tower" width="96" height="96">' +
        '<p>The museum in the old lighthouse keeper\'s house.</p>' +
        '<p><a href="/hours.html">Opening hours</a> · <a href="/exhibits.html">All exhibits</a></p>',
    ),
    'hours.html': page('Opening hours', '<h1>Opening hours</h1><p>Open daily from 10:00 to 17:00.</p>'),
    // Small print in columns: the whole list is in the viewport, so the observation
    // (of the viewport only) holds every line.
    'exhibits.html': page(
      'All exhibits',
      `<h1>All exhibits</h1><ul style="columns: 6; font-size: 6px; line-height: 7px; margin: 0">\n${list}\n</ul>`,
    ),
  };
}

/**
 * Starts the site; `close()` stops it and removes the folder.
 * @param {{ exhibits?: number }} [options]
 */
export async function startMuseum({ exhibits = 500 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'hopbench-realmodel-site-'));
  const dir = join(root, 'museum');
  mkdirSync(dir);
  for (const [name, html] of Object.entries(pages(exhibits))) writeFileSync(join(dir, name), html);
  writeFileSync(join(dir, 'tower.png'), towerPicture([180, 40, 40]));
  const sites = await startSites({ names: ['museum'], root });
  return {
    /** @param {string} path */
    url: (path) => sites.url('museum', path),
    close: async () => {
      await sites.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A task file starting at `path` of the museum: find the opening hours (one hop, the
 * hours page; a final answer with the hours).
 * @param {string} dir where to write it
 * @param {string} name file name without .json
 * @param {string} startUrl
 */
export function writeHoursTask(dir, name, startUrl) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({
    id: `realmodel/${name}`,
    intent: 'When does the Harbor Light Museum open? Go to its opening hours and answer with the time.',
    start_urls: [startUrl],
    hops: [{ description: 'the opening hours page', condition: { kind: 'url', op: 'contains', value: 'hours' } }],
  }, null, 2));
  return file;
}

/** A temp folder for one test's tasks and run folder; `remove()` deletes it. */
export function scratch(/** @type {string} */ what) {
  const dir = mkdtempSync(join(tmpdir(), `hopbench-realmodel-${what}-`));
  return {
    dir,
    remove: () => {
      if (!process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
    },
  };
}
