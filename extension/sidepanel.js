// Side panel: the current run (or `?run=ID`), live. The worker rewrites the run's
// record in chrome.storage.local after every transition and `runs.current` when a run
// starts; each change triggers one GET_RUN, coalesced while one is in flight.

import { ask } from './ask.js';
import { CURRENT_RUN_KEY, RUN_RECORD_KEY, errorText, getRun, stopRun } from './messages.js';
import { runView } from './run-view.js';

const $ = (id) => document.getElementById(id);
const fixedRunId = new URLSearchParams(location.search).get('run');

/** The run shown: fixed by the URL, else the last one started. */
async function shownRunId() {
  if (fixedRunId) return fixedRunId;
  return (await chrome.storage.local.get(CURRENT_RUN_KEY))[CURRENT_RUN_KEY] ?? null;
}

let shown = null;
let refreshing = null;
let again = false;

function refresh() {
  if (refreshing) {
    again = true; // One more pass after this one: it may have read too early.
    return refreshing;
  }
  refreshing = render()
    .catch((error) => showStatus(`cannot show the run: ${errorText(error)}`, true))
    .finally(() => {
      refreshing = null;
      if (again) {
        again = false;
        refresh();
      }
    });
  return refreshing;
}

async function render() {
  shown = await shownRunId();
  if (!shown) {
    showStatus('No run yet: start one from the hopbench popup.');
    $('run').replaceChildren();
    $('stop').disabled = true;
    return;
  }
  const { run, steps } = await ask(getRun({ runId: shown, withSteps: true }));
  $('run').replaceChildren(runView(run, steps));
  $('stop').disabled = run.status !== 'running';
  showStatus(run.status === 'running' ? `Running step ${run.step + 1}…` : `Run ${run.status}.`);
}

function showStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'note';
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local') return;
  if (CURRENT_RUN_KEY in changes || (shown && RUN_RECORD_KEY(shown) in changes)) refresh();
});

$('stop').addEventListener('click', async () => {
  $('stop').disabled = true;
  try {
    await ask(stopRun({ runId: shown }));
  } catch (error) {
    showStatus(`cannot stop the run: ${errorText(error)}`, true);
  }
  refresh();
});

refresh();
