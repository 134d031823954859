// Acceptance: on MediaWiki, the extension's `type [id] [text] [1|0]` into the search box
// does what Playwright's keyboard typing (MMInA's `type`) does on the same page: with
// Enter it lands on the article, without Enter the suggestions list opens with the
// same entries, which the next observation shows to the agent.
//
// Both sides start from /wiki/Paris with the search box clicked and its script loaded
// (the agent's previous step was `click [id]` on the box). Why that state: Vector
// loads the search script (mediawiki.searchSuggest) only when the box gets focus, and
// that script is what turns Enter into "go to the article" (it removes the full-text
// fallback button the form submits first). Focus and Enter at once is a race the typing
// usually loses, for Playwright too: here, click + keyboard.type("Tokyo") + Enter on a
// fresh page landed on the full-text results (…/index.php?search=Tokyo&…&fulltext=Search)
// 6 times out of 6; the script needs 50-200 ms after focus, the typing 25-60 ms.
//
// The extension's `type` waits for what the focus loads before its first key, as a
// person's pause does (docs/actions.md), so on a fresh page it lands on the article
// where machine-speed typing does not: the third test.
//
// Once the script is loaded, the suggestions open on key presses only (jquery.suggestions
// listens to keydown/keypress/keyup, not to `input`), so a value set without keys shows
// none: that is the difference key-by-key typing makes.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchExtension, observe, sendOk } from '../../runner/driver.mjs';
import { taskText, waitForPage } from '../e2e/session-helpers.mjs';
import { describeTier } from './packages.mjs';
import { startRealSites } from './real-sites.mjs';
import { findElement } from './scripted-model.mjs';

/** @type {[string, string]} */
const SEARCH_BOX = ['searchbox', 'Search Citywiki'];
/** The suggestions list's entries as a person sees them. */
const suggestionsOf = (/** @type {import('../types.mjs').Page} */ page) => page.locator('.suggestions-result:visible').allInnerTexts();
/** The search script has run: it removes the full-text fallback button. */
const searchScriptLoaded = (/** @type {import('../types.mjs').Page} */ page) => page.waitForSelector('#mw-searchButton', { state: 'detached', timeout: 15_000 });

await describeTier("real-software tier: typing into MediaWiki's search box, extension and Playwright", { timeout: 180_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startRealSites>>} */ let sites;
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {{ enterUrl?: string, suggestions?: string[] }} what the Playwright tests saw */
  const playwright = {};

  before(async () => {
    sites = await startRealSites();
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.stop();
  });

  /** A session on /wiki/Paris whose search box the extension clicked: `{ tabId, page, id }`. */
  async function sessionWithClickedBox() {
    const paris = sites.wiki.article('Paris');
    const started = await sendOk(popup, 'startSession', {
      taskText: taskText({ id: 'realsw/mediawiki-typing', startUrls: [paris] }),
    });
    const [tabId] = started.session.tabIds;
    const page = await waitForPage(ext.context, (url) => url === paris);
    const { text } = await observe(popup, tabId, { mode: 'text' });
    const id = findElement(text, ...SEARCH_BOX);
    assert.ok(id, `no ${SEARCH_BOX.join(' ')} in the observation of ${paris}:\n${text}`);
    const { result } = await sendOk(popup, 'act', { actionText: `click [${id}]` });
    assert.equal(result.error, undefined, JSON.stringify(result));
    await searchScriptLoaded(page);
    return { tabId, page, id };
  }

  /** Playwright on its own tab of the same browser: click the box, wait for its script. */
  async function playwrightWithClickedBox() {
    const page = await ext.openPage(sites.wiki.article('Paris'));
    await page.click('#searchInput');
    await searchScriptLoaded(page);
    return page;
  }

  test("Playwright: keyboard.type('Tokyo') + Enter opens the Tokyo article", async () => {
    const page = await playwrightWithClickedBox();
    try {
      await page.keyboard.type('Tokyo');
      await Promise.all([page.waitForURL((url) => url.pathname !== '/wiki/Paris'), page.keyboard.press('Enter')]);
      playwright.enterUrl = page.url();
      assert.equal(playwright.enterUrl, sites.wiki.article('Tokyo'));
    } finally {
      await page.close();
    }
  });

  test('extension: `type [id] [Tokyo] [1]` lands where Playwright did', async () => {
    assert.ok(playwright.enterUrl, 'the Playwright test ran first');
    const { page, id } = await sessionWithClickedBox();
    const { result } = await sendOk(popup, 'act', { actionText: `type [${id}] [Tokyo] [1]` });
    assert.equal(result.error, undefined, JSON.stringify(result));
    await page.waitForURL((url) => url.pathname !== '/wiki/Paris', { timeout: 15_000 }).catch(() => {});
    assert.equal(page.url(), playwright.enterUrl, `type [${id}] [Tokyo] [1] landed on ${page.url()}`);
    await sendOk(popup, 'endSession');
  });

  test('extension on a fresh page: `type [id] [Tokyo] [1]` waits for what the focus loads, as a person does, and lands on the article', async () => {
    // No click first: the box gets its focus from the type action itself, and the
    // search script only starts loading then. A person starts typing after the box
    // has reacted; machine-speed typing (Playwright above, on a fresh page) does not.
    const paris = sites.wiki.article('Paris');
    const started = await sendOk(popup, 'startSession', {
      taskText: taskText({ id: 'realsw/mediawiki-typing-fresh', startUrls: [paris] }),
    });
    const [tabId] = started.session.tabIds;
    const page = await waitForPage(ext.context, (url) => url === paris);
    const { text } = await observe(popup, tabId, { mode: 'text' });
    const id = findElement(text, ...SEARCH_BOX);
    assert.ok(id, `no ${SEARCH_BOX.join(' ')} in the observation of ${paris}`);
    const { result } = await sendOk(popup, 'act', { actionText: `type [${id}] [Tokyo] [1]` });
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.ok(result.effect.typed.focusLoads.requests > 0, `the focus loaded nothing: ${JSON.stringify(result.effect.typed)}`);
    await page.waitForURL((url) => url.pathname !== '/wiki/Paris', { timeout: 15_000 }).catch(() => {});
    assert.equal(page.url(), sites.wiki.article('Tokyo'), `type [${id}] [Tokyo] [1] on a fresh page landed on ${page.url()}`);
    await sendOk(popup, 'endSession');
  });

  test("Playwright: keyboard.type('Tok') opens the suggestions", async () => {
    const page = await playwrightWithClickedBox();
    try {
      await page.keyboard.type('Tok');
      await page.locator('.suggestions-result:visible').first().waitFor();
      playwright.suggestions = await suggestionsOf(page);
      assert.deepEqual(playwright.suggestions, ['Tokyo']);
    } finally {
      await page.close();
    }
  });

  test('extension: `type [id] [Tok] [0]` opens the same suggestions, and the next observation shows them', async () => {
    assert.ok(playwright.suggestions, 'the Playwright test ran first');
    const { tabId, page, id } = await sessionWithClickedBox();
    const { result } = await sendOk(popup, 'act', { actionText: `type [${id}] [Tok] [0]` });
    assert.equal(result.error, undefined, JSON.stringify(result));
    // The suggestions come from a request to api.php: give them the time a person would.
    await page.locator('.suggestions-result:visible').first().waitFor({ timeout: 5_000 }).catch(() => {});
    assert.deepEqual(await suggestionsOf(page), playwright.suggestions,
      `after type [${id}] [Tok] [0] the box holds "${await page.inputValue('#searchInput')}" but the suggestions ` +
      'list did not open: the text arrived without the key presses it listens to');
    const { text } = await observe(popup, tabId, { mode: 'text' });
    assert.ok(findElement(text, 'link', 'Search for pages containing Tok'),
      `the observation after typing lists no suggestion link:\n${text}`);
    await sendOk(popup, 'endSession');
  });
});
