// Page state shown in the page, so tests read the effect of each action.
let count = 0;
const counter = document.getElementById('counter');
const events = [];
for (const type of ['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click']) {
  counter.addEventListener(type, (e) => {
    events.push(`${type}${e.isTrusted ? '' : '(synthetic)'}`);
    document.getElementById('click-events').textContent = events.join(' ');
  });
}
counter.addEventListener('click', () => {
  count += 1;
  counter.textContent = `Clicked ${count} times`;
});

document.getElementById('covered').addEventListener('click', (e) => {
  document.getElementById('covered-state').textContent =
    `covered clicked ${e.isTrusted ? 'trusted' : 'synthetic'}`;
});
document.getElementById('veil').addEventListener('click', () => {
  document.getElementById('covered-state').textContent = 'veil clicked';
});

document.getElementById('open-window').addEventListener('click', () => {
  window.open('next.html?from=window-open', '_blank');
});

const jsMenu = document.getElementById('js-menu');
jsMenu.addEventListener('mouseenter', () => {
  document.getElementById('js-menu-items').hidden = false;
});
// Reports whether the CSS-only menu item is rendered (it is only under :hover).
// Written only on change, so the page's DOM is quiet when nothing happens.
setInterval(() => {
  const item = document.getElementById('css-menu-item');
  const state = document.getElementById('css-menu-state');
  const text = item.offsetParent !== null ? 'css menu open' : 'css menu closed';
  if (state.textContent !== text) state.textContent = text;
}, 50);

document.addEventListener('keydown', (e) => {
  const mods = ['Control', 'Alt', 'Meta', 'Shift'].filter((m) => e.getModifierState(m));
  if (e.key.length === 1 && mods.length > 0 && !(mods.length === 1 && mods[0] === 'Shift')) {
    e.preventDefault();
    document.getElementById('keys-state').textContent =
      `${[...mods, e.key].join('+')} pressed${e.isTrusted ? '' : ' (synthetic)'}`;
  }
});

customElements.define('shadow-button', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<button id="inner" type="button">Shadow button</button>';
    root.getElementById('inner').addEventListener('click', () => {
      document.getElementById('shadow-state').textContent = 'shadow clicked';
    });
  }
});
