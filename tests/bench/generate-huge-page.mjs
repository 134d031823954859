// Generated pages far larger than any the agent should read whole, for the bounded
// observation (docs/observation.md "The bound"): about `nodes` DOM nodes (elements and
// text nodes) in one of three shapes, below a header of controls, with a click log the
// tests read (`window.hopbenchClicks`: the text of each link or button clicked; a
// click does not navigate).
//
// - rows: rows of a link, a button and a span with text, ten rows to a section
//   (11 nodes a row: 4 elements, 7 text nodes);
// - flat: one list whose items are all children of one element (2 nodes an item);
// - deep: chains of 100 nested divs, each ending in a link (103 nodes a chain).

/** @typedef {'rows' | 'flat' | 'deep'} HugeShape */

export const HUGE_SHAPES = /** @type {const} */ (['rows', 'flat', 'deep']);

/** Nodes of a row, an item and a chain, as the comment above counts them. */
const ROW_NODES = 11;
const ITEM_NODES = 2;
const CHAIN_DEPTH = 100;
const CHAIN_NODES = CHAIN_DEPTH + 3;

/**
 * @param {{ nodes?: number, shape?: HugeShape }} [options]
 */
export function hugePage({ nodes = 200_000, shape = 'rows' } = {}) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Huge page (${shape})</title>
<style>
  body { margin: 8px; font: 14px sans-serif; }
  .row { padding: 2px 0; }
</style></head>
<body>
<header><h1>Huge page</h1><nav><a href="#top">Top</a></nav>
<form role="search"><input type="search" aria-label="Search rows"><button type="button">Search</button></form></header>
<main id="content">${BODIES[shape](nodes)}</main>
<script>
  window.hopbenchClicks = [];
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('a, button') : null;
    if (target) {
      window.hopbenchClicks.push(target.textContent);
      event.preventDefault();
    }
  });
</script>
</body></html>`;
}

/** @type {Record<HugeShape, (nodes: number) => string>} */
const BODIES = {
  rows: (nodes) => {
    const rows = Math.max(1, Math.floor(nodes / ROW_NODES));
    const parts = [];
    for (let i = 0; i < rows; i += 1) {
      if (i % 10 === 0) parts.push(i === 0 ? '<section>' : '</section><section>');
      parts.push(
        `<div class="row"><a href="/row/${i}">Row ${i}</a> <button type="button">Pick ${i}</button> ` +
          `<span>detail of row ${i}</span> and some text</div>`,
      );
    }
    return `${parts.join('\n')}</section>`;
  },
  flat: (nodes) => {
    const items = Math.max(1, Math.floor(nodes / ITEM_NODES));
    const parts = [];
    for (let i = 0; i < items; i += 1) parts.push(`<li>Item ${i}</li>`);
    return `<ul>${parts.join('')}</ul>`;
  },
  // The HTML parser nests up to 512 levels; 100 stays well inside.
  deep: (nodes) => {
    const chains = Math.max(1, Math.floor(nodes / CHAIN_NODES));
    const parts = [];
    for (let i = 0; i < chains; i += 1) {
      parts.push(`<div>${'<div>'.repeat(CHAIN_DEPTH - 1)}<a href="/chain/${i}">Chain ${i}</a>${'</div>'.repeat(CHAIN_DEPTH)}`);
    }
    return parts.join('\n');
  },
};
