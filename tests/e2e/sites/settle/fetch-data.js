// Fetches data.json and shows its text in #RESULT: the data a page loads after its
// load event, for the settle tests.
window.showData = (/** @type {string} */ result) =>
  fetch('data.json')
    .then((response) => response.json())
    .then((data) => {
      document.getElementById(result).textContent = data.text;
    });
