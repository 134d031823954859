// Service worker: owns the wasm core and answers extension pages.
//
// MV3 rules (see README): no top-level await in a module worker (it dies), listeners
// registered synchronously at top level, and no run state in module variables because
// the worker is stopped when idle. The only module-level value is the core's init
// promise (worker/core/core.js), started by the first call that needs the core.
// Pages' messages come in through one door (worker/door.js).

import { registerCdpListeners, whenForeignFramesRefuse } from './worker/cdp/cdp.js';
import { openDoor } from './worker/door.js';
import { registerDuelListeners } from './worker/duel/duel.js';
import { registerFenceListeners, sweepFences } from './worker/fence/fence.js';
import { registerObserveListeners } from './worker/observe/observe.js';
import { registerHopListeners } from './worker/session/hops.js';
import { registerHumanListeners } from './worker/human/session.js';
import { registerHumanTabListeners } from './worker/human/tabs.js';
import { registerNoticeListeners } from './worker/page/notices.js';
import { registerPageErrorListeners } from './worker/page/errors.js';
import { takeOutForeignFrames } from './worker/page/foreign-frames.js';
import { isWorkerGoingAway } from './worker/run/driver.js';
import { closeUnstartedSession, liveRunSessions, registerRunListeners, resumeRuns } from './worker/run/service.js';
import { registerSessionListeners } from './worker/session/sessions.js';
import { restrictToTrustedContexts } from './store/store.js';

// Before anything can start a run: a fence a stopped worker left without its run goes
// (worker/fence/fence.js, "sweep"). Its lock is taken here, synchronously.
sweepFences(liveRunSessions, closeUnstartedSession)
  .then((removed) => {
    if (removed.length > 0) console.warn(`hopbench: removed the site fence of ${removed.length} run(s) that never started or did not end`);
  })
  .catch((error) => console.error('hopbench: sweeping site fences failed:', error));

// Listeners that must wake a stopped worker: registered synchronously, at top level.
registerCdpListeners();
// A session's tab whose page shows another extension's frame is attached once that
// frame is taken out (worker/page/foreign-frames.js).
whenForeignFramesRefuse(takeOutForeignFrames);
registerFenceListeners();
// Before the session listeners: a tab a page closed is still in its session for it.
registerNoticeListeners();
registerSessionListeners();
// Before the hop listeners: a person's Back, Forward or typed URL takes its step in
// the same webNavigation event the tracker is fed from, and must do so first.
registerHumanTabListeners();
registerHopListeners();
registerHumanListeners();
registerDuelListeners();
registerPageErrorListeners();
registerObserveListeners();
registerRunListeners();

// A run the previous worker was driving goes on from its saved record (docs/agent-run.md
// "Resuming"). Also on every message, since a message may be what woke us.
const resume = () =>
  resumeRuns().catch((error) => {
    // A worker being stopped cannot resume anything; the next one will.
    if (isWorkerGoingAway(error)) console.warn('hopbench: not resuming runs, the worker is stopping');
    else console.error('hopbench: resuming runs failed:', error);
  });
resume();
// Listening is what makes Chrome start the worker when the browser starts, so a run the
// browser's exit interrupted ends at once (run/interrupt.js) rather than when a page
// or the backstop alarm (which may not outlive the browser) happens to wake us.
chrome.runtime.onStartup.addListener(resume);
restrictToTrustedContexts().then((access) => {
  // Settings shows this and refuses to store keys until it is fixed.
  if (!access.restricted) console.warn(`hopbench: API keys will not be stored: ${access.error}`);
});

openDoor(resume);
