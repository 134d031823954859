// Images for a multimodal model: each image of the viewport as the page loaded it,
// scaled down and labelled with its element id; the viewport screenshot; a
// set-of-marks screenshot with a numbered box over each interactive element.
//
// Image bytes come from the page's own resources (observe/page-images.js), never from a new
// request. A worker cannot decode SVG (createImageBitmap rejects it), so such images,
// and loaded images whose bytes the page no longer holds, are cropped from a
// screenshot of the viewport instead. An image the page could not load is reported as
// not loaded.

import { blobToDataUrl } from './bytes.js';
import { send } from '../cdp/cdp.js';
import { pageImages } from './page-images.js';

/** Label colours: black on yellow reads on any photo; tests check this yellow. */
export const LABEL_BACKGROUND = '#ffeb3b';
const LABEL_TEXT = '#000000';
const MARK_COLOURS = ['#e53935', '#1e88e5', '#43a047', '#8e24aa', '#fb8c00', '#00897b'];

const SCREENSHOT_TIMEOUT_MS = 10_000;

/**
 * @typedef {{ x: number, y: number, width: number, height: number }} Rect
 * @typedef {{ id: number, src: string, name: string, visible: Rect, targetId: string | null,
 *   frameId: string | null, backendNodeId: number }} ImageItem an image the core listed
 * @typedef {{ id: number, bounds: Rect }} Mark a set-of-marks box the core listed
 * @typedef {import('./observe.js').LabelledImage} LabelledImage
 * @typedef {import('./observe.js').ImageNotLoaded} ImageNotLoaded
 */

/**
 * The 2D context of a canvas the worker made (a fresh OffscreenCanvas always has one).
 * @param {OffscreenCanvas} canvas
 * @returns {OffscreenCanvasRenderingContext2D}
 */
function context2d(canvas) {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('OffscreenCanvas gave no 2d context');
  return ctx;
}

/**
 * Viewport screenshot as a PNG data URL. CDP rather than captureVisibleTab: it takes
 * the observed tab even when another tab is in front. A hidden tab may produce no
 * frame in normal Chrome, so the wait is bounded and the error says why.
 * `forCrop`: the screenshot is only decoded here to crop images from it, so Chrome
 * encodes it for speed (a larger PNG, made in a fraction of the time); one the model
 * or a record receives keeps the compact encoding.
 * @param {number} tabId
 * @param {{ forCrop?: boolean }} [how]
 * @returns {Promise<string>}
 */
export async function captureScreenshot(tabId, { forCrop = false } = {}) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no screenshot of tab ${tabId} within ${SCREENSHOT_TIMEOUT_MS} ms: bring the tab to the front and retry`)),
      SCREENSHOT_TIMEOUT_MS,
    );
  });
  try {
    const { data } = await Promise.race([captureWithRetries(tabId, forCrop), timeout]);
    return `data:image/png;base64,${data}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Chrome refuses a capture ("Unable to capture screenshot") while a tab has no
 * compositor frame yet: just after a navigation commits, or after the debugger
 * re-attached to a worker that was restarted. A frame follows within moments, so a few
 * short waits are tried before giving up (the caller's timeout still bounds the whole).
 * @param {number} tabId
 * @param {boolean} optimizeForSpeed
 */
async function captureWithRetries(tabId, optimizeForSpeed) {
  const waitsMs = [150, 400, 1000];
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send(tabId, 'Page.captureScreenshot', { format: 'png', optimizeForSpeed });
    } catch (error) {
      if (attempt >= waitsMs.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitsMs[attempt]));
    }
  }
}

/**
 * @param {number} tabId
 * @param {ImageItem[]} items from the core
 * @param {{maxSide: number, screenshot: () => Promise<string>, viewportWidth: number}} how
 * @returns {Promise<{images: LabelledImage[], notLoaded: ImageNotLoaded[]}>}
 */
export async function labelledImages(tabId, items, { maxSide, screenshot, viewportWidth }) {
  /** @type {Promise<ImageBitmap> | undefined} */
  let shot; // One screenshot bitmap, decoded only if some image needs it.
  const fromScreenshot = async (/** @type {ImageItem} */ item) => {
    shot ??= screenshot().then(decodeDataUrl);
    const bitmap = await shot;
    const scale = bitmap.width / viewportWidth; // device pixels per CSS pixel
    const r = item.visible;
    return crop(bitmap, r.x * scale, r.y * scale, r.width * scale, r.height * scale);
  };
  const sources = await pageImages(tabId, items);
  /** @type {ImageNotLoaded[]} */
  const notLoaded = [];
  const images = await Promise.all(
    items.map(async (item) => {
      const source = sources.get(item.id);
      if (!source) throw new Error(`observe/page-images.js gave no source for image [${item.id}]`);
      if (source.kind === 'not-loaded') {
        notLoaded.push({ id: item.id, name: item.name, src: item.src, reason: source.reason });
        return null;
      }
      /** @type {ImageBitmap | OffscreenCanvas} */
      let picture;
      /** @type {'page' | 'screenshot'} */
      let from = 'page';
      try {
        if (source.kind !== 'bytes') throw new Error(source.why);
        picture = await createImageBitmap(source.blob);
      } catch (error) {
        console.debug(`hopbench: image [${item.id}] ${item.src} cropped from the screenshot:`, /** @type {Error} */ (error).message);
        picture = await fromScreenshot(item);
        from = 'screenshot';
      }
      const canvas = scaled(picture, maxSide);
      drawLabel(context2d(canvas), String(item.id), 0, 0, LABEL_BACKGROUND);
      return {
        id: item.id,
        name: item.name,
        src: item.src,
        dataUrl: await canvasDataUrl(canvas),
        width: canvas.width,
        height: canvas.height,
        from,
      };
    }),
  );
  notLoaded.sort((a, b) => a.id - b.id);
  return { images: images.filter((image) => image !== null), notLoaded };
}

/**
 * Set-of-marks: the screenshot with a box and id label over each mark.
 * @param {string} screenshotDataUrl
 * @param {Mark[]} marks
 * @param {number} viewportWidth
 * @returns {Promise<string>}
 */
export async function setOfMarks(screenshotDataUrl, marks, viewportWidth) {
  const bitmap = await decodeDataUrl(screenshotDataUrl);
  const scale = bitmap.width / viewportWidth;
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = context2d(canvas);
  ctx.drawImage(bitmap, 0, 0);
  ctx.lineWidth = Math.max(2, Math.round(2 * scale));
  marks.forEach((mark, i) => {
    const colour = MARK_COLOURS[i % MARK_COLOURS.length];
    const b = mark.bounds;
    ctx.strokeStyle = colour;
    ctx.strokeRect(b.x * scale, b.y * scale, b.width * scale, b.height * scale);
    drawLabel(ctx, String(mark.id), b.x * scale, b.y * scale, colour, '#ffffff');
  });
  return canvasDataUrl(canvas);
}

/** @param {string} dataUrl */
async function decodeDataUrl(dataUrl) {
  return createImageBitmap(await (await fetch(dataUrl)).blob());
}

/**
 * @param {ImageBitmap} bitmap
 * @param {number} x
 * @param {number} y
 * @param {number} width
 * @param {number} height
 */
function crop(bitmap, x, y, width, height) {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const canvas = new OffscreenCanvas(w, h);
  context2d(canvas).drawImage(bitmap, Math.round(x), Math.round(y), w, h, 0, 0, w, h);
  return canvas;
}

/**
 * Draws `source` scaled so its longest side is at most `maxSide`.
 * @param {ImageBitmap | OffscreenCanvas} source
 * @param {number} maxSide
 */
function scaled(source, maxSide) {
  const ratio = Math.min(1, maxSide / Math.max(source.width, source.height));
  const w = Math.max(1, Math.round(source.width * ratio));
  const h = Math.max(1, Math.round(source.height * ratio));
  const canvas = new OffscreenCanvas(w, h);
  context2d(canvas).drawImage(source, 0, 0, w, h);
  return canvas;
}

/**
 * A filled box with the number in it, its top-left corner at (x, y).
 * @param {OffscreenCanvasRenderingContext2D} ctx
 * @param {string} text
 * @param {number} x
 * @param {number} y
 * @param {string} background
 * @param {string} [foreground]
 */
function drawLabel(ctx, text, x, y, background, foreground = LABEL_TEXT) {
  const size = 16;
  ctx.font = `bold ${size}px sans-serif`;
  const width = Math.ceil(ctx.measureText(text).width) + 8;
  const height = size + 6;
  ctx.fillStyle = background;
  ctx.fillRect(x, y, width, height);
  ctx.fillStyle = foreground;
  ctx.textBaseline = 'top';
  ctx.fillText(text, x + 4, y + 3);
}

/** @param {OffscreenCanvas} canvas */
async function canvasDataUrl(canvas) {
  return blobToDataUrl(await canvas.convertToBlob({ type: 'image/png' }));
}
