// The compact observation format on every site of the sandbox: each site's start page
// and the first pages its links lead to, observed in MMInA's format and in the compact
// one in the same tab (so elements keep their ids). Every element an agent can act on
// (the marks: links, buttons, fields, ...) is in the compact text with the same id,
// role and name; the text of the page is all there, in fewer characters.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox } from '../../runner/sandbox.mjs';
import { freePortBase, SANDBOX_SITES } from './free-ports.mjs';
import { launchExtension, observe, sendOk } from '../../runner/driver.mjs';
import { hopbenchBin } from './native.mjs';
import { startSession } from './session-helpers.mjs';

/** Pages per site beyond its start page: the first links to other pages of it. */
const LINKS_PER_SITE = 3;

/**
 * `[12] link 'Tokyo' …` lines of an observation's text, by id: the role and the name as
 * printed (properties left out, as the agent's own reader does).
 * @param {string} text
 * @returns {Map<number, string>}
 */
function elementLines(text) {
  const lines = new Map();
  for (const line of text.split('\n')) {
    const match = /^\t*\[(\d+)\] (\S+) ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/.exec(line);
    if (match) lines.set(Number(match[1]), `${match[2]} ${match[3]}`);
  }
  return lines;
}

/**
 * The words of the page's text runs in MMInA's format (`StaticText '…'` lines).
 * @param {string} text
 */
function textRuns(text) {
  return [...text.matchAll(/\] StaticText '((?:[^'\\]|\\.)*)'/g)]
    .map((m) => m[1].replace(/\\(.)/g, '$1').split(/\s+/).filter(Boolean).join(' '))
    .filter(Boolean);
}

describe('compact observations keep every element to act on', { timeout: 300_000 }, () => {
  /** @type {Awaited<ReturnType<typeof launchExtension>>} */
  let ext;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */
  let sandbox;
  /** @type {number} */
  let base;
  /** @type {import('playwright-core').Page} */
  let popup;

  before(async () => {
    base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sandbox?.stop();
  });

  test('on every sandbox site: same marked elements, all the text, fewer characters', async () => {
    let pages = 0;
    let full = 0;
    let compact = 0;
    for (let site = 0; site < SANDBOX_SITES; site += 1) {
      const start = `http://127.0.0.1:${base + site}/`;
      const { session } = await startSession(popup, [start]);
      const page = await pageOf(start);
      const links = await page.evaluate((limit) => {
        const here = location.origin;
        const hrefs = [...document.querySelectorAll('a[href]')]
          .map((a) => /** @type {HTMLAnchorElement} */ (a).href)
          .filter((h) => h.startsWith(here) && !h.includes('#') && h !== location.href);
        return [...new Set(hrefs)].slice(0, limit);
      }, LINKS_PER_SITE);
      for (const url of [start, ...links]) {
        if (url !== start) await page.goto(url, { waitUntil: 'load' });
        const tabId = session.currentTabId;
        const mmina = await observe(popup, tabId, { mode: 'text', format: 'mmina' });
        const small = await observe(popup, tabId, { mode: 'text', format: 'compact' });
        const where = `${url}\n--- mmina\n${mmina.text}\n--- compact\n${small.text}`;
        const fullLines = elementLines(mmina.text);
        const compactLines = elementLines(small.text);
        const marked = mmina.marks.map((/** @type {{ id: number }} */ m) => m.id);
        assert.ok(marked.length > 0, `no element to act on: ${where}`);
        for (const id of marked) {
          assert.equal(compactLines.get(id), fullLines.get(id), `element [${id}] differs: ${where}`);
        }
        assert.deepEqual(
          small.marks.map((/** @type {{ id: number }} */ m) => m.id),
          marked,
          `the set-of-marks boxes differ: ${where}`,
        );
        for (const run of textRuns(mmina.text)) {
          assert.ok(small.text.includes(run), `text lost: ${JSON.stringify(run)}: ${where}`);
        }
        assert.ok(small.text.length < mmina.text.length, `not shorter: ${where}`);
        assert.doesNotMatch(small.text, /StaticText|\n\t/, where);
        pages += 1;
        full += mmina.text.length;
        compact += small.text.length;
      }
      await sendOk(popup, 'endSession', { sessionId: session.id });
    }
    assert.ok(pages >= SANDBOX_SITES * 2, `only ${pages} pages observed`);
    // For the log: what the format saves over the sandbox (./build.sh bench counts tokens).
    console.log(`compact: ${pages} pages, ${compact} of ${full} characters (${((100 * compact) / full).toFixed(0)} %)`);
  });

  /** @param {string} url */
  async function pageOf(url) {
    for (let i = 0; i < 100; i += 1) {
      const found = ext.context.pages().find((p) => p.url() === url);
      if (found) {
        await found.waitForLoadState('load');
        return found;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no page shows ${url}`);
  }
});
