// The one element builder of the extension's views (no innerHTML anywhere), and the
// lookup of the elements a page's HTML must have.

/**
 * `el('p', {class: 'x'}, 'text', child)`: attributes, dataset and children in one call.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | null | undefined | false | (Node | string | null | undefined | false)[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

/**
 * The element with this id, of the kind the page's HTML gives it. A page's script and
 * its HTML ship together, so a missing element is a bug: the error names it.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new (...args: never[]) => T} [kind] e.g. HTMLInputElement (default HTMLElement)
 * @param {ParentNode} [root] where to look (default the document)
 * @returns {T}
 */
export function byId(id, kind, root = document) {
  const found = root.querySelector(`#${CSS.escape(id)}`);
  const expected = kind ?? HTMLElement;
  if (!(found instanceof expected)) {
    throw new Error(found ? `#${id} is a <${found.localName}>, not a ${expected.name}` : `the page has no #${id}`);
  }
  return /** @type {T} */ (found);
}
