// The router: the view follows the URL. Filter changes push a new URL (pushState, no
// page load), event pages are hash routes, Back and Forward re-render (popstate,
// hashchange). Links are intercepted like a framework's <Link>: their href is a real
// URL, the click pushes it instead of loading it.
(() => {
  const view = document.getElementById('view');
  let renders = 0;
  let rendered = ''; // the URL the view shows

  const text = (tag, content, attrs = {}) => {
    const el = document.createElement(tag);
    el.textContent = content;
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
  };

  /** The listing URL with `changes` applied to the current filters. */
  function filterUrl(changes) {
    const params = new URLSearchParams(location.search);
    params.delete('q');
    for (const [key, value] of Object.entries(changes)) {
      if (value) params.set(key, value);
      else params.delete(key);
    }
    const query = params.toString();
    return query ? `/?${query}` : '/';
  }

  function eventLink(event) {
    return text('a', event.name, { href: `#/event/${event.id}` });
  }

  function listing(params) {
    const city = params.get('city') ?? '';
    const cat = params.get('cat') ?? '';
    view.append(text('h2', city ? `Events in ${city}` : 'All events'));
    const select = document.createElement('select');
    select.id = 'city';
    select.setAttribute('aria-label', 'City');
    select.append(text('option', 'All cities', { value: '' }));
    for (const name of window.CITIES) select.append(text('option', name, { value: name }));
    select.value = city;
    select.addEventListener('change', () => navigate(filterUrl({ city: select.value })));
    const nav = text('nav', '', { 'aria-label': 'Categories' });
    for (const [key, label] of window.CATEGORIES) {
      const link = text('a', label, { href: filterUrl({ cat: key }), 'data-cat': key });
      if (key === cat) link.setAttribute('aria-current', 'page');
      nav.append(link, ' ');
    }
    const found = window.EVENTS.filter((e) => (!city || e.city === city) && (!cat || e.cat === cat));
    const list = text('ul', '', { id: 'results' });
    for (const event of found) {
      const item = text('li', '');
      item.append(eventLink(event), ` (${event.city}, ${event.cat})`);
      list.append(item);
    }
    view.append(select, nav, list, text('p', `${found.length} events`, { id: 'count' }));
  }

  function results(query) {
    const words = query.toLowerCase();
    const found = window.EVENTS.filter((e) => `${e.name} ${e.city} ${e.cat}`.toLowerCase().includes(words));
    view.append(text('h2', `Search results for "${query}"`, { id: 'results-title' }));
    const list = text('ul', '', { id: 'results' });
    for (const event of found) {
      const item = text('li', '');
      item.append(eventLink(event));
      list.append(item);
    }
    view.append(list, text('p', `${found.length} results`, { id: 'count' }));
  }

  function eventPage(id) {
    const event = window.EVENTS.find((e) => e.id === id);
    if (!event) {
      view.append(text('h2', 'No such event'));
      return;
    }
    view.append(
      text('h2', event.name, { id: 'event-title' }),
      text('p', `${event.city} · ${event.cat}`, { id: 'event-where' }),
      text('a', 'Back to events', { href: '#/' }),
    );
  }

  function render() {
    view.replaceChildren();
    const route = /^#\/event\/(\d+)$/.exec(location.hash);
    const params = new URLSearchParams(location.search);
    if (route) eventPage(Number(route[1]));
    else if (params.has('q')) results(params.get('q'));
    else listing(params);
    document.title = `${view.querySelector('h2')?.textContent ?? 'City Events'} - City Events`;
    renders += 1;
    rendered = location.href;
    // Same URL, new state: what routers do to remember the view. Not a URL change.
    history.replaceState({ renders }, '');
  }

  function navigate(url) {
    history.pushState(null, '', url);
    render();
  }

  // Same-origin, non-hash links without a target are routed in the page.
  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href]');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    const href = link.getAttribute('href');
    if (href.startsWith('#') || link.target || event.ctrlKey || event.metaKey) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
  // A fragment change fires both popstate and hashchange: render once per URL.
  const rerender = () => {
    if (location.href !== rendered) render();
  };
  addEventListener('popstate', rerender);
  addEventListener('hashchange', rerender);

  window.spaRouter = { navigate, render };
  render();
})();
