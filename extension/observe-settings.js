// Observation settings, shared by the service worker and the extension pages.
// Stored in one slot (store/keys.js OBSERVATION_SETTINGS), merged over the defaults on
// read so a setting added later has a value for people who saved settings before.

import { OBSERVATION_FORMATS, OBSERVATION_MODES } from './core-terms.js';
import { OBSERVATION_SETTINGS } from './store/keys.js';
import { read, write } from './store/store.js';

/**
 * @typedef {{ mode: string, imageMaxSide: number, wholePage: boolean, linkUrls: boolean,
 *   format: string }} ObservationSettings
 */

/**
 * What a model is given with the accessibility-tree text (OBSERVATION_MODES), and how
 * the text is written (OBSERVATION_FORMATS): MMInA's format, or the compact one for
 * models with a small context (no indentation, text without ids; docs/observation.md
 * "Compact"). Their names are the core's (core-terms.js, generated from its types).
 */
export { OBSERVATION_FORMATS, OBSERVATION_MODES };

/** @type {Readonly<ObservationSettings>} */
export const DEFAULT_OBSERVATION_SETTINGS = Object.freeze({
  mode: 'text+images',
  /** Longest side, in pixels, of each image handed to the model. */
  imageMaxSide: 512,
  /** Whole page instead of the viewport (MMInA: viewport only). */
  wholePage: false,
  /** Print `url:` on links (Chromium 156 reports them; the benchmark format did not). */
  linkUrls: false,
  /** The benchmark's own text format unless the person picks the compact one. */
  format: 'mmina',
});

/**
 * Checks one settings object; returns the problems found (empty when valid).
 * @param {ObservationSettings} settings
 * @returns {string[]}
 */
export function settingsProblems(settings) {
  /** @type {string[]} */
  const problems = [];
  if (!OBSERVATION_MODES.includes(settings.mode)) {
    problems.push(`mode must be one of ${OBSERVATION_MODES.join(', ')} (got ${settings.mode})`);
  }
  if (!OBSERVATION_FORMATS.includes(settings.format)) {
    problems.push(`format must be one of ${OBSERVATION_FORMATS.join(', ')} (got ${settings.format})`);
  }
  const side = settings.imageMaxSide;
  if (!Number.isInteger(side) || side < 32 || side > 4096) {
    problems.push(`imageMaxSide must be a whole number of pixels from 32 to 4096 (got ${side})`);
  }
  for (const flag of /** @type {const} */ (['wholePage', 'linkUrls'])) {
    if (typeof settings[flag] !== 'boolean') problems.push(`${flag} must be true or false`);
  }
  return problems;
}

/** @returns {Promise<ObservationSettings>} */
export async function loadObservationSettings() {
  /** @type {ObservationSettings} */
  const merged = { ...DEFAULT_OBSERVATION_SETTINGS, ...((await read(OBSERVATION_SETTINGS)) ?? {}) };
  // A stored value that no longer validates falls back to the default, not to an error.
  return settingsProblems(merged).length === 0 ? merged : { ...DEFAULT_OBSERVATION_SETTINGS };
}

/**
 * @param {Partial<ObservationSettings>} changes
 * @returns {Promise<ObservationSettings>}
 */
export async function saveObservationSettings(changes) {
  const next = { ...(await loadObservationSettings()), ...changes };
  const problems = settingsProblems(next);
  if (problems.length > 0) throw new Error(`observation settings not saved: ${problems.join('; ')}`);
  await write(OBSERVATION_SETTINGS, next);
  return next;
}
