// Three form-associated custom elements, each drawing its parts in a shadow root: a
// text field, a custom listbox (a combobox button that opens a list of options) and a
// submit button with an inline SVG icon. The form is sent through ElementInternals, as
// design systems do: a button inside a shadow root does not submit the form around it.

class DsField extends HTMLElement {
  static formAssociated = true;
  constructor() {
    super();
    this.internals = this.attachInternals();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>label{display:flex;flex-direction:column;gap:4px}input{font:inherit;padding:6px}</style><label><span></span><input type="text"></label>';
    root.querySelector('span').textContent = this.getAttribute('label');
    this.input = root.querySelector('input');
    this.input.addEventListener('input', () => this.internals.setFormValue(this.input.value));
  }
}

class DsSelect extends HTMLElement {
  static formAssociated = true;
  constructor() {
    super();
    this.internals = this.attachInternals();
    const root = this.attachShadow({ mode: 'closed' });
    root.innerHTML = `<style>ul{list-style:none;margin:4px 0;padding:0;border:1px solid #888;max-width:200px}li{padding:4px 8px;cursor:pointer}li:hover{background:#eef}</style>
      <span id="label"></span>
      <button type="button" role="combobox" aria-haspopup="listbox" aria-expanded="false" aria-labelledby="label">Choose a city</button>
      <ul role="listbox" aria-labelledby="label" hidden></ul>`;
    root.getElementById('label').textContent = this.getAttribute('label');
    const button = root.querySelector('button');
    const list = root.querySelector('ul');
    for (const city of (this.getAttribute('options') ?? '').split(',')) {
      const option = document.createElement('li');
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      option.textContent = city;
      option.addEventListener('click', () => {
        for (const o of list.children) o.setAttribute('aria-selected', String(o === option));
        button.textContent = city;
        this.internals.setFormValue(city.toLowerCase());
        list.hidden = true;
        button.setAttribute('aria-expanded', 'false');
      });
      list.append(option);
    }
    button.addEventListener('click', () => {
      list.hidden = !list.hidden;
      button.setAttribute('aria-expanded', String(!list.hidden));
    });
  }
}

class DsButton extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<style>button{display:inline-flex;align-items:center;gap:6px;font:inherit;padding:6px 14px}</style>
      <button type="button"><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M1 8 L15 1 L11 15 L8 9 Z" fill="currentColor"/></svg><span></span></button>`;
    root.querySelector('span').textContent = this.getAttribute('label');
    root.querySelector('button').addEventListener('click', () => this.closest('form')?.requestSubmit());
  }
}

customElements.define('ds-field', DsField);
customElements.define('ds-select', DsSelect);
customElements.define('ds-button', DsButton);
