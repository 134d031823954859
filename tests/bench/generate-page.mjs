// A generated shop-like page of about 3,000 elements, for the observation benchmark:
// 500 product cards (heading, image, text, price, link, quantity field, button), a
// header with a search form and a footer. Only the first cards are in the viewport.

/**
 * @param {number} [cards]
 */
export function generatedPage(cards = 500) {
  /** @param {number} i */
  const card = (i) => `
  <article class="card">
    <h3>Product ${i}</h3>
    <img src="/img/p${i % 4}.png" alt="Product ${i} photo" width="120" height="90">
    <p>Short description of product ${i}, with <em>details</em> and <b>features</b>.</p>
    <span class="price">$${(i * 3.7 + 5).toFixed(2)}</span>
    <a href="/item/${i}.html">Details of product ${i}</a>
    <label>Quantity <input type="number" value="1" min="1"></label>
    <button type="button">Add product ${i} to cart</button>
  </article>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Generated shop</title>
<style>
  body { margin: 8px; font: 14px sans-serif; }
  main { display: grid; grid-template-columns: repeat(4, 1fr); gap: 10px; }
  .card { border: 1px solid #ccc; padding: 6px; }
</style></head>
<body>
<header><nav><a href="/">Home</a> <a href="/deals.html">Deals</a> <a href="/help.html">Help</a></nav>
<form role="search"><input type="search" aria-label="Search products"><button>Search</button></form></header>
<main>${Array.from({ length: cards }, (_, i) => card(i)).join('')}
</main>
<footer><p>Generated page for benchmarking.</p></footer>
</body></html>`;
}
