// What the page itself did with each image of the viewport, and the bytes it loaded,
// read over CDP from the page's own resources. Never a new request: fetching an
// image's URL again from the worker would carry the person's cookies for that site
// (host permissions lift CORS, and a worker fetch is first-party), so a page on site A
// showing <img src="https://B/private.png"> could make the agent see, store and export
// what B shows the person, even where the page's own load got nothing (a SameSite
// cookie it does not send). docs/security.md, "Images".
//
// Per image: the element says whether it loaded (`complete` with a natural size, the
// browser's own verdict); the bytes come from `Page.getResourceContent` of the frame
// that holds it (the Page agent must be enabled for that; it is left on, as cdp/cdp.js
// attach turns it on for every debugged target so that page/notices.js hears of each
// JavaScript dialog). An image the page could not load is reported as not
// loaded; an image whose bytes are not available, or that is not an <img>, is cropped
// from the screenshot by the caller.

import { base64ToBytes } from './bytes.js';
import { childSessions, send } from '../cdp/cdp.js';

/** Handles made here are released together, per session. */
const OBJECT_GROUP = 'hopbench-images';

/**
 * @typedef {import('./images.js').ImageItem} ImageItem
 * @typedef {{ kind: 'bytes', blob: Blob } | { kind: 'crop', why: string } | { kind: 'not-loaded', reason: string }} ImageSource
 * @typedef {{ element: string, complete?: boolean, width?: number, src?: string }} ElementState
 *   what STATE_FN returns
 * @typedef {(sessionId: string | undefined, frameId: string, url: string) => Promise<Blob | null>} ContentOnce
 */

// Runs in the page on the image element. Plain property reads: a page that lies
// about its own images can only hide them or make the worker look for bytes it does
// not hold (then the picture is cropped from the screenshot): nothing is fetched.
const STATE_FN = `function () {
  if (this.localName !== 'img') return { element: this.localName || this.nodeName };
  return { element: 'img', complete: this.complete, width: this.naturalWidth, src: this.currentSrc || this.src };
}`;

/**
 * @param {number} tabId
 * @param {ImageItem[]} items the core's image items
 * @returns {Promise<Map<number, ImageSource>>} by image id
 */
export async function pageImages(tabId, items) {
  const sessions = await sessionsFor(tabId, items);
  /** @type {Map<string | undefined, Promise<unknown>>} */
  const enabled = new Map();
  const enable = (/** @type {string | undefined} */ sessionId) => {
    let done = enabled.get(sessionId);
    if (!done) {
      done = send(tabId, 'Page.enable', {}, sessionId);
      enabled.set(sessionId, done);
    }
    return done;
  };
  /** @type {Map<string, Promise<Blob | null>>} */
  const contents = new Map(); // One read per (session, frame, URL): pages repeat icons.
  /** @type {ContentOnce} */
  const contentOnce = (sessionId, frameId, url) => {
    const key = JSON.stringify([sessionId ?? null, frameId, url]);
    let content = contents.get(key);
    if (!content) {
      content = enable(sessionId).then(() => resourceBlob(tabId, sessionId, frameId, url));
      contents.set(key, content);
    }
    return content;
  };
  try {
    const entries = await Promise.all(
      items.map(async (item) => {
        const sessionId = sessions.get(item.targetId ?? null);
        if (sessionId === null) return /** @type {[number, ImageSource]} */ ([item.id, { kind: 'not-loaded', reason: 'its frame is gone' }]);
        return /** @type {[number, ImageSource]} */ ([item.id, await sourceOf(tabId, sessionId, item, contentOnce)]);
      }),
    );
    return new Map(entries);
  } finally {
    // Sent now, not awaited: later commands to these sessions queue behind them, and
    // the pictures do not wait a round trip for it. cleanUp logs its own failures.
    for (const sessionId of sessions.values()) {
      if (sessionId !== null) void cleanUp(tabId, sessionId);
    }
  }
}

/**
 * targetId (null = the tab) → sessionId (undefined = the tab), or null when gone.
 * @param {number} tabId
 * @param {ImageItem[]} items
 * @returns {Promise<Map<string | null, string | undefined | null>>}
 */
async function sessionsFor(tabId, items) {
  const children = await childSessions(tabId);
  /** @type {Map<string | null, string | undefined | null>} */
  const out = new Map([[null, undefined]]);
  for (const item of items) {
    if (item.targetId === null || item.targetId === undefined) continue;
    const child = children.find((c) => c.targetId === item.targetId);
    out.set(item.targetId, child ? child.sessionId : null);
  }
  return out;
}

/**
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {ImageItem} item
 * @param {ContentOnce} contentOnce
 * @returns {Promise<ImageSource>}
 */
async function sourceOf(tabId, sessionId, item, contentOnce) {
  /** @type {ElementState} */
  let state;
  try {
    state = await elementState(tabId, sessionId, item.backendNodeId);
  } catch (error) {
    return { kind: 'not-loaded', reason: `the element left the page (${/** @type {Error} */ (error).message})` };
  }
  if (state.element !== 'img') return { kind: 'crop', why: `a <${state.element}> element, not an <img>` };
  if (!state.complete) return { kind: 'not-loaded', reason: 'the page has not finished loading it' };
  const src = state.src ?? '';
  const blob = item.frameId ? await contentOnce(sessionId, item.frameId, src) : null;
  const svg = blob?.type === 'image/svg+xml';
  // A broken image has no natural size; so has an SVG without width and height,
  // which the page did load: its bytes are in the page's resources.
  if (state.width === 0 && !svg) return { kind: 'not-loaded', reason: 'the page could not load it' };
  if (svg) return { kind: 'crop', why: 'an SVG, which a worker cannot decode' };
  if (blob) return { kind: 'bytes', blob };
  if (src.startsWith('data:')) return { kind: 'bytes', blob: await dataUrlBlob(src) };
  return { kind: 'crop', why: "its bytes are not in the page's resources" };
}

/**
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {number} backendNodeId
 * @returns {Promise<ElementState>}
 */
async function elementState(tabId, sessionId, backendNodeId) {
  const { object } = await send(tabId, 'DOM.resolveNode', { backendNodeId, objectGroup: OBJECT_GROUP }, sessionId);
  const { result, exceptionDetails } = await send(tabId, 'Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration: STATE_FN,
    returnByValue: true,
  }, sessionId);
  if (exceptionDetails) throw new Error(exceptionDetails.text ?? 'the state check threw');
  return result.value;
}

/**
 * The bytes the frame holds for `url`, as a Blob typed by sniffing, or null when it
 * holds none (a failed load, or a resource the page has let go of).
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {string} frameId
 * @param {string} url
 */
async function resourceBlob(tabId, sessionId, frameId, url) {
  let content;
  try {
    content = await send(tabId, 'Page.getResourceContent', { frameId, url }, sessionId);
  } catch (error) {
    // "Content unavailable. Resource was not cached": the page has no bytes for it.
    console.debug(`hopbench: no page bytes for ${url}:`, /** @type {Error} */ (error).message);
    return null;
  }
  const bytes = content.base64Encoded ? base64ToBytes(content.content) : new TextEncoder().encode(content.content);
  return new Blob([bytes], { type: sniffType(bytes) });
}

/**
 * Enough of a type for the caller to tell SVG (text) from the raster formats.
 * @param {Uint8Array} bytes
 */
function sniffType(bytes) {
  const head = new TextDecoder().decode(bytes.subarray(0, 256)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'image/svg+xml';
  return '';
}

/**
 * A data: URL holds its own bytes; reading it makes no request.
 * @param {string} dataUrl
 */
async function dataUrlBlob(dataUrl) {
  return (await fetch(dataUrl)).blob();
}

/**
 * Releases the handles the reads took. (The Page domain stays on: see above.)
 * @param {number} tabId
 * @param {string | undefined} sessionId
 */
async function cleanUp(tabId, sessionId) {
  try {
    await send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, sessionId);
  } catch (error) {
    // A frame that navigated away took its handles with it.
    console.debug('hopbench: image clean-up:', error instanceof Error ? error.message : error);
  }
}
