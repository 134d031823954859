// ./build.sh bench-huge --candidates: the DevTools commands the bounded observation was
// chosen among (docs/observation.md "The bound"), each sent alone from the extension's
// service worker (the transport an observation uses) to a generated huge page in a
// fresh browser: its time, its reply's size and the memory of every Chromium process
// at its peak over the loaded page. Prints figures; asserts nothing.

import { launchExtension, newProfileDir, tabIdOf } from '../../runner/driver.mjs';
import { chromiumMemory, peakMemoryDuring } from './chromium-memory.mjs';
import { HUGE_SHAPES } from './generate-huge-page.mjs';

/** A command that has not answered by then is reported as such. */
const CANDIDATE_WAIT_MS = 240_000;

/**
 * Each runs in the service worker, attached to tab `tabId`, and returns its figures.
 * @type {Record<string, { about: string, run: (args: { tabId: number }) => Promise<Record<string, unknown>> }>}
 */
const CANDIDATES = {
  probe: {
    about: "the size probe: Runtime.evaluate of document.getElementsByTagName('*').length",
    run: async ({ tabId }) => {
      const t0 = performance.now();
      const reply = /** @type {{ result: { value: number } }} */ (await chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: "document.getElementsByTagName('*').length", returnByValue: true }));
      return { ms: performance.now() - t0, elements: reply.result.value };
    },
  },
  fullTree: {
    about: 'Accessibility.getFullAXTree (what an observation sent before)',
    run: async ({ tabId }) => {
      const t0 = performance.now();
      const { nodes } = /** @type {{ nodes: unknown[] }} */ (await chrome.debugger.sendCommand({ tabId }, 'Accessibility.getFullAXTree', {}));
      const ms = performance.now() - t0;
      // The reply's size from a sample: a whole JSON.stringify would cost its own gigabyte.
      const sample = nodes.slice(0, 2_000);
      return { ms, nodes: nodes.length, replyMB: (JSON.stringify(sample).length / sample.length) * nodes.length / 1e6 };
    },
  },
  depth3: {
    about: 'Accessibility.getFullAXTree with depth 3',
    run: async ({ tabId }) => {
      const t0 = performance.now();
      const reply = /** @type {{ nodes: unknown[] }} */ (await chrome.debugger.sendCommand({ tabId }, 'Accessibility.getFullAXTree', { depth: 3 }));
      return { ms: performance.now() - t0, nodes: reply.nodes.length, replyMB: JSON.stringify(reply).length / 1e6 };
    },
  },
  snapshot: {
    about: 'DOMSnapshot.captureSnapshot (border widths as the only styles, as before)',
    run: async ({ tabId }) => {
      const t0 = performance.now();
      const reply = /** @type {{ documents: { nodes: { backendNodeId: unknown[] } }[] }} */ (await chrome.debugger.sendCommand({ tabId }, 'DOMSnapshot.captureSnapshot', { computedStyles: ['border-left-width', 'border-top-width'] }));
      return { ms: performance.now() - t0, nodes: reply.documents[0]?.nodes.backendNodeId.length ?? 0 };
    },
  },
  lazyRoot: {
    about: 'Accessibility.enable, getRootAXNode, then getChildAXNodes of the root (a lazy walk\'s first steps)',
    run: async ({ tabId }) => {
      const t0 = performance.now();
      await chrome.debugger.sendCommand({ tabId }, 'Accessibility.enable', {});
      const t1 = performance.now();
      const { node } = /** @type {{ node: { nodeId: string } }} */ (await chrome.debugger.sendCommand({ tabId }, 'Accessibility.getRootAXNode', {}));
      const t2 = performance.now();
      const { nodes } = /** @type {{ nodes: unknown[] }} */ (await chrome.debugger.sendCommand({ tabId }, 'Accessibility.getChildAXNodes', { id: node.nodeId }));
      return { enableMs: t1 - t0, rootMs: t2 - t1, childrenMs: performance.now() - t2, children: nodes.length };
    },
  },
  oneNode: {
    about: 'Accessibility.getPartialAXTree of one element without relatives, twice (the first builds the renderer\'s tree)',
    run: async ({ tabId }) => {
      const { result } = /** @type {{ result: { objectId: string } }} */ (await chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: "document.querySelector('h1')" }));
      const ask = () => chrome.debugger.sendCommand({ tabId }, 'Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
      const t0 = performance.now();
      await ask();
      const t1 = performance.now();
      await ask();
      return { firstMs: t1 - t0, againMs: performance.now() - t1 };
    },
  },
};

/**
 * @param {import('../types.mjs').Sites} sites serving /<shape>.html on site `huge`
 * @param {string} name
 * @param {string} shape
 */
async function measure(sites, name, shape) {
  const profileDir = newProfileDir();
  const ext = await launchExtension({ profileDir });
  try {
    const extPage = await ext.openExtensionPage('popup.html');
    const page = await ext.openPage(sites.url('huge', `/${shape}.html`));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const loaded = chromiumMemory(profileDir);
    const tabId = await tabIdOf(extPage, page.url());
    await ext.worker.evaluate(async (id) => chrome.debugger.attach({ tabId: id }, '1.3'), tabId);
    const { result, peak } = await peakMemoryDuring(profileDir, () =>
      Promise.race([
        ext.worker.evaluate(CANDIDATES[name].run, { tabId }),
        new Promise((resolve) => setTimeout(() => resolve({ error: `no answer in ${CANDIDATE_WAIT_MS / 1000} s` }), CANDIDATE_WAIT_MS)),
      ]).catch((error) => ({ error: error instanceof Error ? error.message : String(error) })),
    );
    return { result, peak: { total: peak.total - loaded.total, browser: peak.browser - loaded.browser, extension: peak.extension - loaded.extension } };
  } finally {
    await ext.close();
  }
}

/**
 * @param {Record<string, unknown>} figures
 */
const shown = (figures) => Object.entries(figures).map(([k, v]) => `${k} ${typeof v === 'number' ? Math.round(v * 10) / 10 : v}`).join(', ');

/**
 * @param {import('../types.mjs').Sites} sites
 * @param {number} nodes
 */
export async function runCandidates(sites, nodes) {
  console.log(`candidates, each alone in a fresh browser on the ${nodes.toLocaleString('en')}-node pages; ` +
    'memory: peak MB over the loaded page (all processes; the browser process; the extension\'s)');
  for (const [name, { about }] of Object.entries(CANDIDATES)) {
    // The renderer's tree is built by any Accessibility command: that one on every shape.
    const shapes = name === 'oneNode' ? HUGE_SHAPES : ['rows'];
    for (const shape of shapes) {
      const { result, peak } = await measure(sites, name, shape);
      console.log(`  ${name} (${shape}): ${about}\n    ${shown(/** @type {Record<string, unknown>} */ (result))}; ` +
        `memory +${peak.total} MB (browser +${peak.browser}, extension +${peak.extension})`);
    }
  }
}
