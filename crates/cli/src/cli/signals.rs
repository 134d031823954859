//! SIGINT/SIGTERM → a flag the sandbox's foreground loop polls, so it can stop every
//! site and exit cleanly instead of being killed mid-response.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Routes Ctrl-C (and SIGTERM on Unix) to the flag. When a handler cannot be set (one
/// was set already), the signals keep their default: the process ends and the OS
/// closes the ports, which is what happened before the handler existed.
pub fn install() {
    // ctrlc runs the closure on its own thread, so it need not be async-signal-safe.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
}
