//! SIGINT/SIGTERM → a flag the sandbox's foreground loop polls, so it can stop every
//! site and exit cleanly instead of being killed mid-response.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    // Only an atomic store: the one kind of work that is safe inside a signal handler.
    STOP.store(true, Ordering::SeqCst);
}

#[cfg(unix)]
pub fn install() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: `on_signal` is async-signal-safe (one atomic store) and lives for the
        // whole program; `signal` only registers it.
        unsafe {
            libc::signal(signal, handler);
        }
    }
}

/// Elsewhere Ctrl-C keeps its default (the process ends and the OS closes the ports).
#[cfg(not(unix))]
pub fn install() {}
