// An open shadow root, as web components build them: its content must be observed.
customElements.define('trip-card', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>div{border:1px solid #999;padding:4px}</style>' +
      '<div><strong>Shadow card</strong> <button type="button">Shadow button</button></div>';
  }
});
