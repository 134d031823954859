// A screenshot kept with a step for people to look at (the run views' thumbnails, the
// report's trajectory pages) when the observation mode shows the model no picture.
// JPEG at quality 60: a viewport is then some tens of KB, where a PNG is hundreds.

import { send } from '../cdp/cdp.js';

/**
 * `{mime, base64}` of the tab's viewport, or null (with a warning) when Chrome refuses.
 * @param {number} tabId
 * @returns {Promise<{ mime: string, base64: string } | null>}
 */
export async function recordScreenshot(tabId) {
  try {
    const { data } = await send(tabId, 'Page.captureScreenshot', { format: 'jpeg', quality: 60 });
    return { mime: 'image/jpeg', base64: data };
  } catch (error) {
    // A page without a frame yet (just re-attached): the step goes on without a picture.
    console.warn(`hopbench: no screenshot of tab ${tabId} for the record:`, /** @type {Error} */ (error).message);
    return null;
  }
}
