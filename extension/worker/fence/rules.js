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
 * Hosts of this machine and of private networks, one small RE2 pattern each (Chrome
 * refuses a regex rule whose compiled form passes 2 KB, which one pattern for all of
 * them does): loopback (127/8, localhost, ::1, ::ffff:127.0.0.1), the private ranges (10/8, 172.16/12,
 * 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10) and 0.0.0.0. Chrome matches
 * the canonical URL, so a decimal or hex spelling (http://2130706433/) is matched as the
 * dotted one.
 */
const PRIVATE_HOSTS = Object.freeze([
  '^[a-z]+://127\\.',
  '^[a-z]+://10\\.[0-9]+\\.[0-9]+\\.[0-9]+[:/]',
  '^[a-z]+://192\\.168\\.',
  '^[a-z]+://172\\.(1[6-9]|2[0-9]|3[01])\\.[0-9]+\\.[0-9]+[:/]',
  '^[a-z]+://169\\.254\\.',
  '^[a-z]+://0\\.0\\.0\\.0[:/]',
  // `localhost.` too: the name with its root dot is loopback as well, and goes to no proxy.
  '^[a-z]+://([a-z0-9-]+\\.)*localhost\\.?[:/]',
  // ::1, the unspecified ::, IPv4-mapped addresses (::ffff:127.0.0.1 reaches loopback),
  // unique-local and link-local.
  '^[a-z]+://\\[(::1\\]|::\\]|::ffff:|f[cd][0-9a-f]*:|fe80:)',
]);

/**
 * Rules with consecutive ids from `firstId`:
 * - a block of every top-level navigation;
 * - blocks of every other request (images, scripts, fetch, frames) to this machine or
 *   a private network (`PRIVATE_HOSTS`): a page on a task's site cannot reach the
 *   loopback services and intranet hosts of the machine the run is on (the batch
 *   machine's, or the person's) unless a task names them;
 * - per allowed origin, a higher-priority allow of its navigations and of its other
 *   requests.
 * @param {number} firstId
 * @param {string[]} origins canonical origins (`new URL(u).origin`)
 * @param {number[]} excludedTabIds
 * @returns {chrome.declarativeNetRequest.Rule[]}
 */
export function fenceRules(firstId, origins, excludedTabIds) {
  const excluded = [...new Set([NO_TAB, ...excludedTabIds])].sort((a, b) => a - b);
  const navigation = (/** @type {{ urlFilter?: string }} */ extra) => ({ ...extra, resourceTypes: RESOURCE_TYPES, excludedTabIds: excluded });
  // Without resourceTypes a rule matches every type but main_frame.
  const other = (/** @type {{ urlFilter?: string, regexFilter?: string }} */ extra) => ({ ...extra, excludedTabIds: excluded });
  /** @type {Omit<chrome.declarativeNetRequest.Rule, 'id'>[]} */
  const rules = [
    { priority: 1, action: { type: BLOCK }, condition: navigation({}) },
    ...PRIVATE_HOSTS.map((regexFilter) => ({ priority: 1, action: { type: BLOCK }, condition: other({ regexFilter }) })),
    ...origins.flatMap((origin) => [
      // `|` anchors at the start; the `/` after the origin stops
      // http://site.test matching http://site.test.evil.example.
      { priority: 2, action: { type: ALLOW }, condition: navigation({ urlFilter: `|${origin}/` }) },
      { priority: 2, action: { type: ALLOW }, condition: other({ urlFilter: `|${origin}/` }) },
    ]),
  ];
  return rules.map((rule, i) => ({ id: firstId + i, ...rule }));
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
