// Which pages an agent cannot act on, and what it is told there
// (extension/worker/observe/no-content.js): every kind the browser refuses to
// extensions, and no ordinary web page among them.

import assert from 'node:assert/strict';
import { test } from 'node:test';

test('pages no extension may script are told apart from web pages', async () => {
  const { noContentKind, noContentSentence, tabsLineText } = await import('../../extension/worker/observe/no-content.js');
  const cases = {
    '': 'a blank page',
    'about:blank': 'a blank page',
    'chrome://newtab/': "the browser's new-tab page",
    'chrome://new-tab-page/': "the browser's new-tab page",
    'chrome://settings/': 'a page of the browser itself',
    'chrome://extensions/': 'a page of the browser itself',
    'devtools://devtools/bundled/inspector.html': 'a page of the browser itself',
    'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html': "another extension's page (such as the PDF viewer)",
    'chrome-error://chromewebdata/': "the browser's error page",
    'https://chromewebstore.google.com/detail/x/abc': 'the Chrome Web Store, which no extension may read',
    'https://chrome.google.com/webstore/detail/abc': 'the Chrome Web Store, which no extension may read',
    'view-source:https://example.org/': 'a page source view',
  };
  for (const [url, kind] of Object.entries(cases)) assert.equal(noContentKind(url), kind, url);
  // Web pages, the store's look-alikes and Google's other pages are pages like any.
  for (const url of ['https://example.org/', 'http://127.0.0.1:8601/a.html', 'https://chrome.google.com/', 'https://webstore.example.com/', 'https://chromewebstore.google.com.evil.test/']) {
    assert.equal(noContentKind(url), null, url);
  }
  assert.equal(
    noContentSentence('about:blank', 'a blank page'),
    'This tab shows a blank page (about:blank): it has no content to act on. Open a page with goto [url], go back with go_back, or switch to another tab with tab_focus.',
  );
  // The tabs line as the core prints it (src/observation/format.rs).
  assert.equal(tabsLineText([{ title: 'Notes', current: false }, { title: '', current: true }]), 'Tab 0: Notes | Tab 1 (current): ');
});
