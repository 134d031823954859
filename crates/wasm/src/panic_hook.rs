//! Reports Rust panics to the console before the wasm instance traps, and keeps the
//! message so the worker can put it in the error reply.
//!
//! Without a hook a panic surfaces in JS only as `RuntimeError: unreachable`, with no
//! hint of where or why. The release profile uses `panic = "abort"`; the hook still
//! runs first.

use std::sync::{Mutex, Once};

use super::console::console_error;

static INSTALL: Once = Once::new();
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Installs the hook; later calls do nothing, so re-running init is harmless.
pub fn install() {
    INSTALL.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = format!("hopbench core panicked: {info}");
            console_error(&message);
            // A poisoned lock is impossible here (panics abort), but never panic in
            // the hook itself: skip recording rather than abort twice.
            if let Ok(mut slot) = LAST_PANIC.lock() {
                *slot = Some(message);
            }
        }));
    });
}

/// The message of the last panic since the previous call, if any.
pub fn take_last_panic() -> Option<String> {
    LAST_PANIC.lock().ok().and_then(|mut slot| slot.take())
}
