// observeTab: what a model is shown for one tab. Gathers CDP data, lets the wasm core
// render the MMInA text and assign stable ids, then adds images or screenshots as the
// observation mode asks. The agent loop and the "show observation" page both use it.
//
// The core's init (core/core.js) is awaited beside the trees, so an observation that is
// the first thing a woken worker does (a person's session) does not wait for it twice.

import { idRegistry } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { loadObservationSettings, settingsProblems } from '../../observe-settings.js';
import { attach, childSessions, detach } from '../cdp/cdp.js';
import { gatherTab } from './gather.js';
import { noContentKind, noContentSentence, pdfViewerSentence, showsPdfViewer, shownUrl, tabsLineText } from './no-content.js';
import { captureScreenshot, labelledImages, setOfMarks } from './images.js';
import { readSessions, sessionOfTab } from '../session/sessions.js';
import { loadedCore } from '../core/core.js';
import { foreignFramesLine, takeOutForeignFrames } from '../page/foreign-frames.js';

/**
 * @typedef {import('../../observe-settings.js').ObservationSettings} ObservationSettings
 * @typedef {import('../../messages.js').ObserveOptions} ObserveOptions
 * @typedef {import('../core/core-types.js').CoreObservation} CoreObservation
 * @typedef {{ id: number, name: string, src: string, dataUrl: string, width: number,
 *   height: number, from: 'page'|'screenshot' }} LabelledImage
 * @typedef {{ id: number, name: string, src: string, reason: string }} ImageNotLoaded
 * @typedef {{ text: string, url: string, title: string, tabs: { title: string, current: boolean }[], mode: string, images: LabelledImage[],
 *   imagesNotLoaded: ImageNotLoaded[], screenshot?: string, som?: string, marks: unknown[],
 *   stats: Record<string, unknown>, timings: Record<string, number>, visualsError?: string }} Observation
 *   `visualsError`: why a step went on with the text alone (run/commands.js)
 * @typedef {{ images?: LabelledImage[], notLoaded?: ImageNotLoaded[], screenshot?: string,
 *   som?: string }} Visuals
 */


/**
 * @param {number} tabId
 * @param {ObserveOptions} [options] overrides of the stored settings; `tabIds`
 *   are the tabs of the tabs line (a session's tabs), default: the tab's window
 * @returns {Promise<Observation>} `imagesNotLoaded`: viewport images the page itself could not
 *   load (text+images mode); they are reported, never fetched again
 */
export async function observeTab(tabId, options = {}) {
  const t0 = performance.now();
  // The tabs line first: its URL says whether the page can be read at all.
  const tabInfo = await tabsLine(tabId, options.tabIds);
  const empty = withoutContent(tabInfo, options);
  if (empty) return empty;
  // The trees are read from the start; nothing of them depends on the settings, which
  // are read meanwhile (a storage read that would otherwise come first).
  // Other extensions' frames out of a session's tab first (Chrome refuses the debugger
  // while one is there; attach takes them out too when refused): their count makes
  // the line saying what was not observed.
  const foreignP = takeOutForeignFrames(tabId);
  // Awaited (and throwing) below; not left unhandled if something else fails first.
  foreignP.catch(() => undefined);
  const attached = attach(tabId);
  /** @type {Promise<ObservationSettings>} */
  const settingsP = loadObservationSettings().then((stored) => ({ ...stored, ...definedOnly(options) }));
  // Only a page too big to read whole waits for the setting (observe/nearby.js).
  const wholePage = settingsP.then((s) => s.wholePage);
  const gatheredP = attached.then(() => gatherTab(tabId, { attached: true, wholePage }));
  // Not left unhandled if the settings are refused; awaited (and throwing) below.
  gatheredP.catch(() => undefined);
  const settings = await settingsP;
  const problems = settingsProblems(settings);
  if (problems.length > 0) throw new Error(`cannot observe tab ${tabId}: ${problems.join('; ')}`);
  await attached;
  // A screenshot the mode needs anyway is taken while the trees are read.
  const needsShot = settings.mode === 'text+screenshot' || settings.mode === 'som';
  // Set-of-marks draws over the screenshot and encodes the result again.
  const screenshotP = needsShot ? captureScreenshot(tabId, { forCrop: settings.mode === 'som' }) : undefined;
  // Not left unhandled while the gather runs; it is awaited (and throws) below.
  screenshotP?.catch(() => undefined);
  const [gathered, registryJson, core] = await Promise.all([
    gatheredP,
    loadRegistry(tabId),
    loadedCore(),
  ]);
  const t1 = performance.now();
  const input = JSON.stringify({ targets: gathered.targets, viewport: gathered.viewport, tabs: tabInfo.tabs });
  const coreOptions = JSON.stringify({ wholePage: settings.wholePage, linkUrls: settings.linkUrls, format: settings.format });
  const result = core.observe(input, registryJson, coreOptions);
  const t2 = performance.now();
  const registrySaved = saveRegistry(tabId, result.registry);
  const visuals = await visualsFor(settings, tabId, result, gathered.viewport, screenshotP);
  await registrySaved;
  const t3 = performance.now();
  const ms = (/** @type {number} */ a, /** @type {number} */ b) => Math.round((b - a) * 10) / 10;
  // A PDF in Chrome's viewer: the tree holds the viewer's buttons, not the document.
  const pdf = showsPdfViewer(await childSessions(tabId), gathered.mimeType);
  const notObserved = foreignFramesLine(await foreignP);
  return {
    text: [result.text, pdf ? pdfViewerSentence(tabInfo.url) : '', notObserved].filter(Boolean).join('\n\n'),
    url: tabInfo.url,
    title: tabInfo.title,
    tabs: tabInfo.tabs,
    mode: settings.mode,
    images: visuals.images ?? [],
    imagesNotLoaded: visuals.notLoaded ?? [],
    ...(visuals.screenshot ? { screenshot: visuals.screenshot } : {}),
    ...(visuals.som ? { som: visuals.som } : {}),
    marks: result.marks,
    stats: { ...result.stats, inputBytes: input.length },
    timings: {
      axFetchMs: ms(0, gathered.axMs),
      cdpMs: ms(t0, t1),
      coreMs: ms(t1, t2),
      visualsMs: ms(t2, t3),
      totalMs: ms(t0, t3),
    },
  };
}

/**
 * OBSERVE_TAB from an extension page ("Show observation of this tab"): a tab outside
 * every session is the person's own, so the debugger leaves it as soon as the
 * observation is taken (Chrome's "started debugging this browser" bar goes with it).
 * A session tab stays attached: its run watches the network through the debugger.
 * @param {number} tabId
 * @param {ObserveOptions} options
 * @returns {Promise<Observation>}
 */
export async function observeForPage(tabId, options) {
  try {
    return await observeTab(tabId, options);
  } finally {
    if (!sessionOfTab(await readSessions(), tabId)) {
      await detach(tabId).catch((error) => console.warn(`hopbench: detaching from tab ${tabId} failed:`, error));
    }
  }
}

/** The element behind `[id]` in the tab's last observation: `{targetId, backendNodeId}`.
 * Throws an error naming the id when no element has it. */
/**
 * @param {number} tabId
 * @param {number} id
 * @returns {Promise<import('../core/core-types.js').ElementRef>}
 */
export async function resolveElement(tabId, id) {
  const [registryJson, core] = await Promise.all([loadRegistry(tabId), loadedCore()]);
  if (!registryJson) throw new Error(`no element [${id}]: tab ${tabId} has not been observed yet`);
  return core.resolve_element(registryJson, id);
}

/** Forgets a closed tab's ids; call once, synchronously, at the worker's top level. */
export function registerObserveListeners() {
  chrome.tabs.onRemoved.addListener((tabId) => {
    remove(idRegistry(tabId)).catch((error) =>
      console.error(`hopbench: forgetting the ids of closed tab ${tabId} failed:`, error),
    );
  });
}

/**
 * @param {ObservationSettings} settings
 * @param {number} tabId
 * @param {CoreObservation} result
 * @param {{ clientWidth: number }} viewport
 * @param {Promise<string> | undefined} screenshotP
 * @returns {Promise<Visuals>}
 */
async function visualsFor(settings, tabId, result, viewport, screenshotP) {
  const viewportWidth = viewport.clientWidth;
  switch (settings.mode) {
    case 'text+images': {
      const { images, notLoaded } = await labelledImages(tabId, /** @type {import('./images.js').ImageItem[]} */ (result.images), {
        maxSide: settings.imageMaxSide,
        screenshot: () => captureScreenshot(tabId, { forCrop: true }),
        viewportWidth,
      });
      return { images, notLoaded };
    }
    case 'text+screenshot':
      return { screenshot: await screenshotP };
    case 'som':
      return { som: await setOfMarks(await shotOf(screenshotP), /** @type {import('./images.js').Mark[]} */ (result.marks), viewportWidth) };
    default:
      return {};
  }
}

/** Tabs line entries from chrome.tabs. Titles and URLs of http(s) pages are visible
 * through the host permissions; a blank tab (about:blank) shows as an empty title, as
 * WebArena's Playwright reported it. */
/**
 * @param {number} tabId
 * @param {number[] | undefined} tabIds
 */
async function tabsLine(tabId, tabIds) {
  const tab = await chrome.tabs.get(tabId);
  const tabs = tabIds
    ? await Promise.all(tabIds.map((id) => chrome.tabs.get(id)))
    : await chrome.tabs.query({ windowId: tab.windowId });
  return {
    url: await shownUrl(tab),
    title: tab.title ?? '',
    tabs: tabs.map((t) => ({ title: t.title ?? '', current: t.id === tabId })),
  };
}

/**
 * What the agent is shown of a page that did not answer for `waitedMs` (its main
 * thread busy or looping: every DevTools command to it waits): the tabs line and a
 * sentence saying so, as a person sees a page that does not react.
 * @param {number} tabId
 * @param {ObserveOptions} options `tabIds`: the session's tabs
 * @param {number} waitedMs
 * @returns {Promise<Observation>}
 */
export async function unresponsiveObservation(tabId, options, waitedMs) {
  const line = await tabsLine(tabId, options.tabIds);
  const seconds = Math.round(waitedMs / 1000);
  return {
    text:
      `${tabsLineText(line.tabs)}\n\nThe page is not responding: it has been busy for ${seconds} s and nothing on it ` +
      'could be read. Act again to wait for it, or leave it (go_back, goto [url], another tab).',
    url: line.url,
    title: line.title,
    tabs: line.tabs,
    mode: options.mode ?? 'text',
    images: [],
    imagesNotLoaded: [],
    marks: [],
    stats: { unresponsiveMs: waitedMs },
    timings: {},
  };
}

/**
 * The observation of a page with no content to act on (observe/no-content.js): the
 * tabs line and a sentence saying what the page is; null for any other page. Nothing
 * is attached or read: Chrome would refuse it with words only an extension can use.
 * @param {Awaited<ReturnType<typeof tabsLine>>} line the tab's tabs line and URL
 * @param {ObserveOptions} options
 * @returns {Observation | null}
 */
function withoutContent(line, options) {
  const kind = noContentKind(line.url);
  if (kind === null) return null;
  const url = line.url;
  return {
    text: `${tabsLineText(line.tabs)}\n\n${noContentSentence(url, kind)}`,
    url,
    title: line.title,
    tabs: line.tabs,
    mode: options.mode ?? 'text',
    images: [],
    imagesNotLoaded: [],
    marks: [],
    stats: { noContent: kind },
    timings: {},
  };
}

/**
 * @param {number} tabId
 * @returns {Promise<string | undefined>}
 */
async function loadRegistry(tabId) {
  return read(idRegistry(tabId));
}

/**
 * @param {number} tabId
 * @param {unknown} registry
 */
function saveRegistry(tabId, registry) {
  return write(idRegistry(tabId), JSON.stringify(registry));
}

/**
 * The options that are set, over the stored settings.
 * @param {ObserveOptions} options
 * @returns {Partial<ObservationSettings>}
 */
function definedOnly(options) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of /** @type {const} */ (['mode', 'wholePage', 'imageMaxSide', 'linkUrls', 'format'])) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  return out;
}

/**
 * The screenshot the mode asked for while the trees were read (taken for these modes).
 * @param {Promise<string> | undefined} screenshotP
 * @returns {Promise<string>}
 */
function shotOf(screenshotP) {
  if (!screenshotP) throw new Error('no screenshot was taken for this observation mode');
  return screenshotP;
}
