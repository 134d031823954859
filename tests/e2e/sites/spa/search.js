// The search box: a framework-style controlled input with suggestions, written to
// behave the way MediaWiki's search box does for the difference that matters here:
// typed text + Enter opens the item, a value put into the box + Enter lists results.
//
// - Controlled, like React: the component's state holds the text and the input shows
//   the state. It remembers the value it last rendered (React wraps the instance's
//   `value` property the same way) and ignores an input event whose value equals it,
//   so `input.value = x` from script followed by an input event is not a change.
// - Suggestions come from keystrokes: the list is refreshed on keyup from the state,
//   as jquery.suggestions (MediaWiki's) reacts to key events, not to the value.
// - Enter submits the form: when the state names a suggestion shown exactly (case
//   ignored), it goes to that event's page (#/event/<id>); otherwise to the full-text
//   results for the text in the box (?q=...), like MediaWiki's Special:Search.
(() => {
  const form = document.getElementById('search-form');
  const list = document.getElementById('suggestions');
  const input = document.createElement('input');
  Object.assign(input, { id: 'search', type: 'search', autocomplete: 'off' });
  input.setAttribute('aria-label', 'Search events');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', 'suggestions');
  input.setAttribute('aria-expanded', 'false');

  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  let tracked = '';
  Object.defineProperty(input, 'value', {
    configurable: true,
    get() { return native.get.call(this); },
    set(v) { tracked = String(v); native.set.call(this, v); },
  });

  let state = '';
  let shown = [];

  function suggestionsFor(text) {
    const prefix = text.trim().toLowerCase();
    if (!prefix) return [];
    return window.EVENTS.filter((e) => e.name.toLowerCase().startsWith(prefix)).slice(0, 5);
  }

  function render() {
    input.value = state; // controlled: the box always shows the state
    list.replaceChildren(
      ...shown.map((event) => {
        const option = document.createElement('li');
        option.setAttribute('role', 'option');
        option.textContent = event.name;
        option.addEventListener('click', () => open(event));
        return option;
      }),
    );
    input.setAttribute('aria-expanded', String(shown.length > 0));
  }

  function open(event) {
    state = '';
    shown = [];
    render();
    location.hash = `#/event/${event.id}`;
  }

  input.addEventListener('input', () => {
    const current = native.get.call(input);
    if (current === tracked) return; // not a change as far as the component knows
    state = current;
    render();
  });
  input.addEventListener('keyup', (event) => {
    if (event.key === 'Enter' || event.key === 'Escape') return;
    shown = suggestionsFor(state);
    render();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = state.trim().toLowerCase();
    const exact = shown.find((e) => e.name.toLowerCase() === wanted);
    if (exact) return open(exact);
    const query = native.get.call(input);
    shown = [];
    render();
    window.spaRouter.navigate(`/?${new URLSearchParams({ q: query })}`);
  });

  document.getElementById('search-root').append(input);
  render();
})();
