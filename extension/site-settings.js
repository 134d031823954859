// Site fence settings (Settings → Sites; docs/security.md): whether runs in this
// browser stay on their task's sites, and the origins the person adds to or removes
// from every run's fence. Shared by the worker and the options page; nothing secret.
// The worker checks each line with the core (`site_list_problems`) before saving.

import { SITE_SETTINGS } from './store/keys.js';
import { read, write } from './store/store.js';

/** On by default: runs in the person's browser carry the person's identity. */
/** @typedef {{ fence: boolean, allow: string[], deny: string[] }} SiteSettings */

/** @type {Readonly<{ fence: boolean, allow: readonly string[], deny: readonly string[] }>} */
export const DEFAULT_SITE_SETTINGS = Object.freeze({ fence: true, allow: Object.freeze([]), deny: Object.freeze([]) });

/** Generous bounds that keep one run's rules far below Chrome's 5,000 session rules. */
export const MAX_LINES = 200;
const MAX_LINE_LENGTH = 2_000;

/**
 * Shape problems as `{field, message}` (the lines themselves are the core's to check).
 * @param {{ fence?: unknown, allow?: unknown, deny?: unknown } | undefined} sites as a page sent them
 * @returns {{ field: string, message: string }[]}
 */
export function siteSettingsShapeProblems(sites) {
  /** @type {{ field: string, message: string }[]} */
  const problems = [];
  if (typeof sites?.fence !== 'boolean') problems.push({ field: 'sites.fence', message: 'must be true or false' });
  for (const list of /** @type {const} */ (['allow', 'deny'])) {
    const lines = sites?.[list];
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string' && l.length <= MAX_LINE_LENGTH)) {
      problems.push({ field: `sites.${list}`, message: `must be lines of text of at most ${MAX_LINE_LENGTH} characters` });
    } else if (lines.length > MAX_LINES) {
      problems.push({ field: `sites.${list}`, message: `at most ${MAX_LINES} lines (got ${lines.length})` });
    }
  }
  return problems;
}

/**
 * Blank lines dropped and each line trimmed: what is stored and shown again.
 * @param {SiteSettings} sites
 * @returns {SiteSettings}
 */
export function tidySiteSettings(sites) {
  const tidy = (/** @type {string[]} */ lines) => lines.map((l) => l.trim()).filter((l) => l !== '');
  return { fence: sites.fence, allow: tidy(sites.allow), deny: tidy(sites.deny) };
}

/** @returns {Promise<SiteSettings>} */
export async function loadSiteSettings() {
  /** @type {Partial<SiteSettings>} */
  const stored = /** @type {Partial<SiteSettings>} */ ((await read(SITE_SETTINGS)) ?? {});
  return /** @type {SiteSettings} */ ({ ...DEFAULT_SITE_SETTINGS, ...stored });
}

/**
 * @param {SiteSettings} sites
 * @returns {Promise<SiteSettings>}
 */
export async function saveSiteSettings(sites) {
  await write(SITE_SETTINGS, sites);
  return sites;
}
