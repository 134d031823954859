// Where could an API key have gone? Every place a person, a page, a log or a file
// could show it, read back as text, for tests that assert a key appears nowhere:
// the DOM (with input values) of extension pages, console messages, chrome.storage
// (the saved settings excepted, where the key lives by design), every IndexedDB
// database, run exports, downloaded files, and the bodies and URLs of the requests
// a fake server received.

import { readFile } from 'node:fs/promises';

/**
 * The page's HTML plus every form field's current value (not part of the HTML).
 * @param {import('../types.mjs').Page} page
 */
export function pageText(page) {
  return page.evaluate(() => {
    const values = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input, textarea, select'))].map((f) => f.value);
    return `${document.documentElement.outerHTML}\n${values.join('\n')}`;
  });
}

/**
 * The extension's storage, read from one of its pages: `session` (all of it), `local`
 * without `settings.agent`, `settingsAgent` (where the key must be, so the scan is
 * known to see it), and `indexedDb`: every record of every store of every database,
 * blobs read as text.
 * @param {import('../types.mjs').Page} extPage
 */
export function storageDump(extPage) {
  return extPage.evaluate(async () => {
    const local = await chrome.storage.local.get(null);
    const settingsAgent = JSON.stringify(local['settings.agent'] ?? null);
    delete local['settings.agent'];
    /**
     * @template T
     * @param {IDBRequest<T>} r
     * @returns {Promise<T>}
     */
    const request = (r) => new Promise((ok, fail) => {
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    /** @param {unknown} value */
    const asText = (value) => JSON.stringify(value, (_k, v) => (v instanceof Blob ? `[blob ${v.type}]` : v));
    const dbTexts = [];
    for (const { name } of await indexedDB.databases()) {
      // Every database indexedDB.databases() lists has a name.
      const db = await request(indexedDB.open(/** @type {string} */ (name)));
      for (const storeName of db.objectStoreNames) {
        const records = await request(db.transaction(storeName).objectStore(storeName).getAll());
        for (const record of records) {
          dbTexts.push(`${name}/${storeName}: ${asText(record)}`);
          for (const blob of Object.values(record).filter((v) => v instanceof Blob)) {
            dbTexts.push(`${name}/${storeName} blob: ${await blob.text()}`);
          }
        }
      }
      db.close();
    }
    return {
      session: JSON.stringify(await chrome.storage.session.get(null)),
      local: JSON.stringify(local),
      settingsAgent,
      indexedDb: dbTexts.join('\n'),
    };
  });
}

/**
 * Clicks `selector` on `page`, which downloads a file; returns the file's text.
 * @param {import('../types.mjs').Page} page
 * @param {string} selector
 */
export async function downloadedText(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

/**
 * The names of the places (`{name: text}`) whose text contains `secret`.
 * @param {string} secret
 * @param {Record<string, unknown>} places
 */
export function placesHolding(secret, places) {
  return Object.entries(places)
    .filter(([, text]) => String(text).includes(secret))
    .map(([name]) => name);
}
