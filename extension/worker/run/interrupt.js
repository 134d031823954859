// Why a run cannot go on for reasons that are not the agent's (docs/agent-run.md
// "Pages that do not load" and "Browser restarts"): a session page the browser could
// not load, or a browser exit that took the session with it. The driver feeds the
// machine `interrupted { reason }` and the run ends as `error` with that reason.

import { BROWSER_LIFE } from '../../store/keys.js';
import { read, write } from '../../store/store.js';
import { endsRun, pageErrorsOf, unreachableText } from '../page/errors.js';
import { readSessions } from '../session/sessions.js';

const LIFE_LOCK = 'hopbench.browserLife';

/**
 * Why a run that was going when the browser exited ends instead of resuming: its
 * session window, the pages' state (forms, scroll, history, the tab order `tab_focus`
 * counts on), the element ids of its last observation and its hop tracker are gone
 * (the store's session area is emptied when the browser exits). Resuming elsewhere would
 * score steps taken on pages the agent never saw, and reopening the last URL could
 * repeat what an action did.
 */
export const BROWSER_EXIT =
  'interrupted by browser exit: the run\'s window, pages and hop tracker do not outlive the browser; ' +
  'the steps recorded before are kept';

/**
 * An id for this browser life. The store's session area is emptied when the browser
 * exits (and when the extension is reloaded), so a run whose record holds another id
 * lost its session that way rather than by someone ending it.
 * @returns {Promise<string>}
 */
export function browserLife() {
  return navigator.locks.request(LIFE_LOCK, async () => {
    const stored = await read(BROWSER_LIFE);
    if (stored) return stored;
    const id = crypto.randomUUID();
    await write(BROWSER_LIFE, id);
    return id;
  });
}

/** The first page of the session the browser could not load, as the run's error; or null. */
/** @param {string} sessionId */
export async function unreachablePage(sessionId) {
  const first = (await pageErrorsOf(sessionId)).find(endsRun);
  return first ? unreachableText(first) : null;
}

/**
 * Why the run must end now, or null when it can go on.
 * @param {{ sessionId: string, browserLife?: string }} record the driver record
 */
export async function interruption(record) {
  if (!(await readSessions())[record.sessionId]) {
    // A record from before browserLife existed can only have lost its session this way too.
    if (record.browserLife === undefined || record.browserLife !== (await browserLife())) return BROWSER_EXIT;
    return `the run's session ${record.sessionId} was ended while the run went on (END_SESSION from a page?)`;
  }
  return unreachablePage(record.sessionId);
}
