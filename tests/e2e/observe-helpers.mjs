// Shared steps of the observation e2e tests: find a page's tab id and ask the worker
// to observe it through the protocol, as the agent loop and the observation view do.

/** The chrome.tabs id of the tab showing `url`, asked from an extension page. */
export async function tabIdOf(extPage, url) {
  return extPage.evaluate(async (wanted) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === wanted);
    if (!tab) throw new Error(`no tab shows ${wanted}: ${tabs.map((t) => t.url)}`);
    return tab.id;
  }, url);
}

/** Sends OBSERVE_TAB from an extension page; returns the reply as it arrives. */
export function observeThroughWorker(extPage, tabId, options = {}) {
  return extPage.evaluate(
    async ([id, opts]) => {
      const messages = await import('./messages.js');
      return chrome.runtime.sendMessage(messages.observeTab(id, opts));
    },
    [tabId, options],
  );
}

/** Like observeThroughWorker, but fails with the worker's error text. */
export async function observe(extPage, tabId, options = {}) {
  const reply = await observeThroughWorker(extPage, tabId, options);
  if (!reply?.ok) throw new Error(`observation failed: ${JSON.stringify(reply)}`);
  return reply.observation;
}

/** The line of `text` containing `needle`, parsed: `{ depth, id, line }`. */
export function lineWith(text, needle) {
  const line = text.split('\n').find((l) => l.includes(needle));
  if (!line) return undefined;
  const rest = line.replace(/^\t*/, '');
  return { depth: line.length - rest.length, id: Number(rest.slice(1, rest.indexOf(']'))), line: rest };
}
