// "Show observation": exactly what a model would get for one tab, per the
// observation mode: the text, the labelled images, the screenshot or set-of-marks,
// and how long each part took. Opened from the popup as observation.html?tab=ID.

import { errorText, isReply, observeTab } from './messages.js';
import { loadObservationSettings } from './observe-settings.js';
import { byId } from './dom.js';

/** @typedef {import('./worker/observe/observe.js').Observation} Observation */

const $ = (/** @type {string} */ id) => byId(id);
const tabId = Number(new URLSearchParams(location.search).get('tab'));

/**
 * @param {string} state
 * @param {string} message
 */
function show(state, message) {
  $('observation').dataset.state = state;
  $('status').textContent = message;
}

/**
 * The tabs line lists the observed tab's window without this extension's own pages
 * (this view, the popup or side panel opened as a tab): no agent ever sees them. Ours
 * are known by the extension's own contexts, not by tab URLs: without the "tabs"
 * permission Chromium 148 gives no URL even for an extension's own pages.
 * @returns {Promise<number[]>}
 */
async function otherTabIds() {
  const observed = await chrome.tabs.get(tabId);
  const tabs = await chrome.tabs.query({ windowId: observed.windowId });
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.TAB] });
  const ours = new Set(contexts.map((c) => c.tabId));
  return tabs.flatMap((t) => (t.id === undefined || (t.id !== tabId && ours.has(t.id)) ? [] : [t.id]));
}

/**
 * Observes with the form's mode and whole-page choice, for this page only: trying
 * another mode here must not change what runs use (settings.observation is the
 * options' to change), so nothing is saved.
 */
async function observe() {
  show('loading', 'Observing…');
  let reply;
  try {
    const options = {
      mode: byId('mode', HTMLSelectElement).value,
      format: byId('format', HTMLSelectElement).value,
      wholePage: byId('whole-page', HTMLInputElement).checked,
      tabIds: await otherTabIds(),
    };
    reply = await chrome.runtime.sendMessage(observeTab(tabId, options));
  } catch (error) {
    show('error', `could not observe tab ${tabId}: ${errorText(error)}`);
    return;
  }
  if (!isReply(reply)) {
    show('error', `unexpected reply from the service worker: ${JSON.stringify(reply)}`);
  } else if (!reply.ok) {
    show('error', reply.error ?? '');
  } else {
    // OBSERVE_TAB's reply: `{ ok, observation }` (messages.js).
    const observation = /** @type {Observation} */ (reply.observation);
    render(observation);
    show('ready', `Observed in ${observation.timings.totalMs} ms (${observation.mode}).`);
  }
}

/** @param {Observation} obs */
function render(obs) {
  $('target-title').textContent = obs.title;
  $('target-url').textContent = obs.url;
  $('text').textContent = obs.text;
  $('text-size').textContent = `${obs.text.length} characters, ${obs.stats.lines} lines`;
  const images = $('images');
  images.replaceChildren(...obs.images.map(figure));
  const notLoaded = obs.imagesNotLoaded ?? [];
  $('not-loaded').replaceChildren(
    ...notLoaded.map((image) =>
      Object.assign(document.createElement('li'), { textContent: `[${image.id}] ${image.name}: ${image.reason} (${image.src})` }),
    ),
  );
  $('not-loaded-section').hidden = notLoaded.length === 0;
  $('images-section').hidden = obs.images.length === 0 && notLoaded.length === 0;
  const picture = obs.som ?? obs.screenshot;
  $('screenshot-section').hidden = !picture;
  if (picture) {
    byId('screenshot', HTMLImageElement).src = picture;
    $('screenshot-title').textContent = obs.som ? 'Set-of-marks screenshot' : 'Screenshot';
  }
  const rows = Object.entries({ ...obs.timings, axNodes: obs.stats.axNodes, inputBytes: obs.stats.inputBytes });
  $('timings').replaceChildren(
    ...rows.map(([name, value]) => {
      const tr = document.createElement('tr');
      for (const cell of [name, value]) {
        const td = document.createElement('td');
        td.textContent = String(cell);
        tr.append(td);
      }
      return tr;
    }),
  );
}

/** @param {import('./worker/observe/observe.js').LabelledImage} image */
function figure(image) {
  const fig = document.createElement('figure');
  fig.dataset.id = String(image.id);
  const img = document.createElement('img');
  img.src = image.dataUrl;
  img.alt = `[${image.id}] ${image.name}`;
  const caption = document.createElement('figcaption');
  caption.textContent = `[${image.id}] ${image.name} (${image.width}×${image.height}, ${image.from})`;
  fig.append(img, caption);
  return fig;
}

async function start() {
  if (!Number.isInteger(tabId)) {
    show('error', 'no tab to observe: open this page from the hopbench popup');
    return;
  }
  const settings = await loadObservationSettings();
  byId('mode', HTMLSelectElement).value = settings.mode;
  byId('whole-page', HTMLInputElement).checked = settings.wholePage;
  byId('format', HTMLSelectElement).value = settings.format;
  $('controls').addEventListener('submit', (event) => {
    event.preventDefault();
    observe().catch((error) => show('error', errorText(error)));
  });
  await observe();
}

start().catch((error) => show('error', errorText(error)));
