// The declarativeNetRequest session rules of one run's site fence (fence/fence.js keeps
// them current). Chrome evaluates them in the browser, before a request leaves it,
// and whether or not the service worker is running.
//
// The rules apply to every tab except `excludedTabIds` (the tabs known to be someone
// else's: the person's, other runs'). Scoping by exclusion rather than by the run's
// own tab ids is what stops a tab a session page opens (target=_blank, window.open):
// its first request can leave before the worker hears of the new tab, so a rule
// listing the run's tabs would not cover it yet, while "every tab but the others'"
// does from the start. (docs/security.md, "The site fence".)

/** Chrome's tabs.TAB_ID_NONE: requests that belong to no tab (workers, prefetch). */
const NO_TAB = -1;

/** Top-level navigations only: a page's own subresources and frames are its business. */
// The strings are the values of chrome.declarativeNetRequest's enums (@types/chrome
// declares them as TypeScript enums); this file stays free of chrome.* for the tests.
const RESOURCE_TYPES = [/** @type {chrome.declarativeNetRequest.ResourceType} */ ('main_frame')];
const BLOCK = /** @type {chrome.declarativeNetRequest.RuleActionType} */ ('block');
const ALLOW = /** @type {chrome.declarativeNetRequest.RuleActionType} */ ('allow');

/**
 * `1 + origins.length` rules with consecutive ids from `firstId`: a block of every
 * top-level navigation, and one higher-priority allow per origin.
 * @param {number} firstId
 * @param {string[]} origins canonical origins (`new URL(u).origin`)
 * @param {number[]} excludedTabIds
 * @returns {chrome.declarativeNetRequest.Rule[]}
 */
export function fenceRules(firstId, origins, excludedTabIds) {
  const excluded = [...new Set([NO_TAB, ...excludedTabIds])].sort((a, b) => a - b);
  const condition = (/** @type {{ urlFilter?: string }} */ extra) => ({ ...extra, resourceTypes: RESOURCE_TYPES, excludedTabIds: excluded });
  return [
    { id: firstId, priority: 1, action: { type: BLOCK }, condition: condition({}) },
    ...origins.map((origin, i) => ({
      id: firstId + 1 + i,
      priority: 2,
      action: { type: ALLOW },
      // `|` anchors at the start; the `/` after the origin stops
      // http://site.test matching http://site.test.evil.example.
      condition: condition({ urlFilter: `|${origin}/` }),
    })),
  ];
}

/**
 * The origin's inside-the-fence test, the same comparison the allow rules make.
 * @param {string[]} origins
 * @param {string} url
 */
export function fenceAllows(origins, url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // The allow rules match the URL text: one with user info (http://a@site/) does not
  // start with `origin/`, so it is outside.
  return origins.includes(parsed.origin) && parsed.href.startsWith(`${parsed.origin}/`);
}

/**
 * What the agent is told, and what its step records.
 * @param {string} url
 */
export function blockedMessage(url) {
  let origin;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = url;
  }
  return `blocked: ${origin} is outside this task's sites`;
}
