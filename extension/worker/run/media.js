// The pictures a step leaves in the trajectory store (IndexedDB `media`, run/trajectories.js)
// and the references its record keeps to them (docs/agent-run.md "Trajectories").
//
// Keys: `<runId>/<step>/image-<element id>` for each labelled image the model was
// given, `<runId>/<step>/screenshot` for the screenshot or set-of-marks picture it was
// given, `<runId>/<step>/page` for the screenshot taken for the person reading the
// trajectory in modes that give the model none. The run id makes them unique across
// runs (two runs that see the same element ids, or run at once, never share a key);
// the step makes them unique within a run (two steps showing the same element keep
// one picture each); a repeated observation of a step replaces its own pictures.

import { parseDataUrl } from '../observe/bytes.js';
import { mediaId } from './trajectories.js';

/**
 * @param {string} runId
 * @param {number} step
 * @param {{ images: {id: number, dataUrl: string}[], screenshot?: string, som?: string }} obs
 *   what observeTab returned
 * @param {string | null} pageShot a screenshot data URL for the record only, or null
 * @returns {{ rows: import('../core/types.js').MediaItem[], refs: { images: string[], screenshot: string | null,
 *   page_screenshot: string | null }, images: {id: number, mime: string, base64: string}[],
 *   screenshot: {mime: string, base64: string} | null }} the store rows, the record's
 *   references, and the pictures for the machine's `observed` event
 */
export function stepMedia(runId, step, obs, pageShot) {
  /** @type {import('../core/types.js').MediaItem[]} */
  const rows = [];
  /**
   * @param {string} name
   * @param {string} kind
   * @param {{ mime: string, base64: string }} picture
   * @param {Record<string, unknown>} [extra]
   */
  const add = (name, kind, picture, extra = {}) => {
    const id = mediaId(runId, step, name);
    // The picture's own fields first: an image's `id` (its element id) must never
    // become the row's key, which is what once made runs overwrite each other's pictures.
    rows.push({ ...picture, ...extra, id, runId, step, kind });
    return id;
  };
  const images = obs.images.map((image) => ({ id: image.id, ...parseDataUrl(image.dataUrl) }));
  /** @type {Map<number, number>} */
  const seen = new Map();
  const imageRefs = images.map(({ id: elementId, ...picture }) => {
    // One picture per element in an observation; should an element come twice, the
    // second still gets a key of its own rather than replacing the first.
    const n = (seen.get(elementId) ?? 0) + 1;
    seen.set(elementId, n);
    return add(n === 1 ? `image-${elementId}` : `image-${elementId}-${n}`, 'image', picture, { elementId });
  });
  const given = obs.som ?? obs.screenshot;
  const screenshot = given ? parseDataUrl(given) : null;
  const screenshotRef = screenshot ? add('screenshot', 'screenshot', screenshot) : null;
  const pageRef = pageShot ? add('page', 'page_screenshot', parseDataUrl(pageShot)) : null;
  return {
    rows,
    refs: { images: imageRefs, screenshot: screenshotRef, page_screenshot: pageRef },
    images,
    screenshot,
  };
}
