// Both real sites of the tier in one temp folder: MediaWiki first, because the Kiwix
// articles link out to it, then Kiwix. `stop()` stops whatever was started, also when
// the start failed half-way, and removes the folder (HOPBENCH_KEEP_TEMP=1 keeps it).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKiwix } from './kiwix.mjs';
import { startMediaWiki } from './mediawiki.mjs';

export async function startRealSites() {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-realsw-'));
  /** @type {{ stop: () => Promise<void> }[]} */
  const started = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
    started.length = 0;
    if (!process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const wiki = await startMediaWiki({ dir: join(dir, 'mediawiki') });
    started.push(wiki);
    const kiwix = await startKiwix({ dir: join(dir, 'kiwix'), wikiOrigin: wiki.origin });
    started.push(kiwix);
    return { dir, wiki, kiwix, urls: { kiwix: kiwix.base, wiki: wiki.origin }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
