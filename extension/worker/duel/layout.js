// Where human vs agent puts its two windows on the display's work area. Pure, so the
// unit tests try it at the sizes people have (800x600 to 1920x1080).
//
// Halves used to split the screen evenly, and the side panel then took 360 px of the
// person's half: at 1280 px their page was 280 px wide, at 800 px 114 px. Now the two
// pages get the same width beside the person's panel; on a display too narrow for two
// usable pages, the person's window keeps a usable page beside its panel (on the
// right) and the agent's window lies partly under it.

/** @typedef {{ left: number, top: number, width: number, height: number }} Area */

/** The side panel's width, as Chrome opens it (its default). */
export const PANEL_WIDTH = 360;
/** The narrowest page that still shows most sites' full layout. */
export const MIN_PAGE_WIDTH = 440;

/**
 * The agent's window and the person's, in that order.
 * @param {Area} area the display's work area
 * @param {number} [panel] the width the person's side panel takes
 * @returns {[Area, Area]}
 */
export function sideBySide({ left, top, width, height }, panel = PANEL_WIDTH) {
  const page = Math.floor((width - panel) / 2);
  if (page >= MIN_PAGE_WIDTH) {
    return [
      { left, top, width: page, height },
      { left: left + page, top, width: width - page, height },
    ];
  }
  const person = Math.min(width, MIN_PAGE_WIDTH + panel);
  const agent = Math.min(width, Math.max(width - person, MIN_PAGE_WIDTH));
  return [
    { left, top, width: agent, height },
    { left: left + width - person, top, width: person, height },
  ];
}
