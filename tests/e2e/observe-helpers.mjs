// Parsing the observation text in the observation e2e tests (sending OBSERVE_TAB is the
// driver's: runner/driver.mjs).

/** @typedef {NonNullable<ReturnType<typeof lineWith>>} ObsLine a line that is there */

/**
 * The line of `text` containing `needle`, parsed: `{ depth, id, line }`.
 * @param {string} text
 * @param {string} needle
 */
export function lineWith(text, needle) {
  const line = text.split('\n').find((l) => l.includes(needle));
  if (!line) return undefined;
  const rest = line.replace(/^\t*/, '');
  return { depth: line.length - rest.length, id: Number(rest.slice(1, rest.indexOf(']'))), line: rest };
}
