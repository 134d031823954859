// A study's task order: as listed, or shuffled with a seed made from the study and the
// participant, so the same participant always gets the same order (and the export
// records the seed). Pure: unit-tested in node.

/**
 * A 32-bit seed from text (FNV-1a).
 * @param {string} text
 * @returns {number}
 */
export function seedOf(text) {
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The items in study order: `fixed` keeps them; `shuffled` is a Fisher-Yates shuffle
 * driven by mulberry32(seed).
 * @template T
 * @param {T[]} items
 * @param {'fixed' | 'shuffled'} order
 * @param {number} seed
 * @returns {T[]}
 */
export function studyOrder(items, order, seed) {
  const out = [...items];
  if (order === 'fixed') return out;
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
