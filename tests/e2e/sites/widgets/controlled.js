// A tiny framework-style controlled input, written like React's: the component owns
// the value in its state and re-renders the input from that state after every input
// event. Like React, it wraps the instance's `value` property to remember the last
// value it rendered, and ignores an input event when the DOM value equals that
// remembered value (so `input.value = x` from page script is not seen as a change).
(() => {
  const root = document.getElementById('controlled-root');
  let state = '';
  const input = document.createElement('input');
  input.id = 'controlled';
  input.setAttribute('aria-label', 'Controlled');
  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  let tracked = '';
  Object.defineProperty(input, 'value', {
    configurable: true,
    get() { return native.get.call(this); },
    set(v) { tracked = String(v); native.set.call(this, v); },
  });
  function render() {
    input.value = state; // controlled: the DOM always shows the state
    document.getElementById('controlled-state').textContent = `state: ${state}`;
  }
  input.addEventListener('input', () => {
    const current = native.get.call(input);
    if (current === tracked) return; // no real change as far as the framework knows
    state = current.toUpperCase(); // the component transforms what it receives
    render();
  });
  root.append(input);
  render();
})();
