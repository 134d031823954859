// Adds `count` list items to #LIST, `everyMs` apart, and shows how many in #COUNT: a
// page changing its DOM over time, for the settle tests.
window.addLines = (/** @type {string} */ list, /** @type {string} */ counter, /** @type {number} */ count, /** @type {number} */ everyMs) => {
  let added = 0;
  const timer = setInterval(() => {
    added += 1;
    const line = document.createElement('li');
    line.textContent = `line ${added}`;
    document.getElementById(list).append(line);
    document.getElementById(counter).textContent = String(added);
    if (added === count) clearInterval(timer);
  }, everyMs);
};
