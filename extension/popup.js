// Popup: shows whether the wasm core in the service worker is ready, or why not.
// Module script loaded from popup.html (the extension CSP forbids inline scripts).

import { errorText, getCoreStatus, isReply } from './messages.js';

const section = document.getElementById('core-status');
const text = document.getElementById('core-status-text');

function show(state, message) {
  section.dataset.state = state;
  text.textContent = message;
}

async function refreshCoreStatus() {
  let reply;
  try {
    reply = await chrome.runtime.sendMessage(getCoreStatus());
  } catch (error) {
    // No worker answered (it failed to start or register its listener).
    show('error', `service worker did not answer: ${errorText(error)}`);
    return;
  }
  if (!isReply(reply)) {
    show('error', `unexpected reply from service worker: ${JSON.stringify(reply)}`);
  } else if (reply.ok) {
    show('ready', `Ready: ${reply.version} (init ${reply.initMs} ms)`);
  } else {
    show('error', reply.error);
  }
}

refreshCoreStatus();

// Opens what a model would see of the active tab of this window.
document.getElementById('show-observation').addEventListener('click', async () => {
  try {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    if (!tab?.id) throw new Error('no active tab in this window');
    await chrome.tabs.create({ url: chrome.runtime.getURL(`observation.html?tab=${tab.id}`), index: tab.index + 1 });
  } catch (error) {
    show('error', `cannot show the observation: ${errorText(error)}`);
  }
});

// The options page: model provider, key, run settings, connection test.
document.getElementById('open-settings').addEventListener('click', async () => {
  try {
    await chrome.runtime.openOptionsPage();
  } catch (error) {
    show('error', `cannot open the settings: ${errorText(error)}`);
  }
});
