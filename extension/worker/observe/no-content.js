// Pages an extension cannot read or script: a blank tab, the browser's own pages
// (the new-tab page, chrome://), other extensions' pages (the PDF viewer), the Chrome
// Web Store, view-source:. Chrome refuses scripts and the debugger there with its own
// words ("Cannot access contents of the page. Extension manifest must request
// permission…"), which an agent cannot act on. These pages are observed as what they
// are, "no content to act on", and an action that needs the page fails with a
// sentence that says what the agent can do instead.

/**
 * The URL a tab shows. Without the "tabs" permission Chrome gives a tab's URL only
 * for hosts the extension may access, so a blank tab or a browser page has none;
 * webNavigation still names its main frame's document, and a tab with neither has
 * not left its initial blank document: about:blank, as MMInA's agents see it.
 * @param {chrome.tabs.Tab} tab
 * @returns {Promise<string>}
 */
export async function shownUrl(tab) {
  const given = tab.pendingUrl || tab.url;
  if (given) return given;
  const frame = tab.id === undefined ? null : await chrome.webNavigation.getFrame({ tabId: tab.id, frameId: 0 }).catch(() => null);
  return frame?.url || 'about:blank';
}

/** Web Store hosts: Chrome lets no extension script them. */
const STORE_HOSTS = new Set(['chromewebstore.google.com']);

/**
 * What the page at `url` is, when it has no content an agent can act on; else null.
 * @param {string} url
 * @returns {string | null}
 */
export function noContentKind(url) {
  if (url === '' || url === 'about:blank' || url === 'about:srcdoc') return 'a blank page';
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  switch (parsed.protocol) {
    case 'http:':
    case 'https:':
      if (STORE_HOSTS.has(parsed.hostname) || (parsed.hostname === 'chrome.google.com' && parsed.pathname.startsWith('/webstore'))) {
        return 'the Chrome Web Store, which no extension may read';
      }
      return null;
    case 'chrome:':
      return parsed.hostname === 'newtab' || parsed.hostname === 'new-tab-page' ? "the browser's new-tab page" : 'a page of the browser itself';
    case 'chrome-extension:':
      return "another extension's page (such as the PDF viewer)";
    case 'chrome-error:':
      return "the browser's error page";
    case 'view-source:':
      return 'a page source view';
    case 'about:':
    case 'chrome-untrusted:':
    case 'devtools:':
    case 'chrome-search:':
      return 'a page of the browser itself';
    default:
      return null;
  }
}

/**
 * The sentence for the agent: what the page is and what it can do instead.
 * @param {string} url
 * @param {string} kind from noContentKind
 */
export function noContentSentence(url, kind) {
  return `This tab shows ${kind} (${url}): it has no content to act on. Open a page with goto [url], go back with go_back, or switch to another tab with tab_focus.`;
}

/** Chrome's built-in PDF viewer: the frame its viewer runs in has this origin. */
const PDF_VIEWER = 'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/';

/**
 * Whether the tab shows a PDF in Chrome's viewer: by its main document's MIME type as
 * the browser determined it, or by the viewer's out-of-process frame among the tab's
 * child sessions (cdp/cdp.js). The type is known at once; the viewer's frame attaches
 * only once the viewer has started, later than an observation on a loaded machine.
 * The viewer's buttons are in the tree; the document's text is not (a disabled
 * EmbeddedObject).
 * @param {{ url: string }[]} children
 * @param {string | null} mimeType the main frame's `mimeType` (Page.getFrameTree)
 */
export function showsPdfViewer(children, mimeType) {
  return mimeType === 'application/pdf' || children.some((c) => c.url.startsWith(PDF_VIEWER));
}

/**
 * The sentence for a tab showing a PDF in Chrome's viewer.
 * @param {string} url
 */
export function pdfViewerSentence(url) {
  return `This tab shows a PDF document in the browser's PDF viewer (${url}): its text is not available to you, only the viewer's own buttons. Open another page with goto [url], or go back with go_back.`;
}

/**
 * The tabs line as the core prints it (src/observation/format.rs tabs_line), for the
 * observation of a page the core gets no tree of.
 * @param {{ title: string, current: boolean }[]} tabs
 */
export function tabsLineText(tabs) {
  return tabs.map((t, i) => `Tab ${i}${t.current ? ' (current)' : ''}: ${t.title}`).join(' | ');
}
