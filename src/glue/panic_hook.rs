//! Reports Rust panics to the console before the wasm instance traps.
//!
//! Without a hook a panic surfaces in JS only as `RuntimeError: unreachable`, with no
//! hint of where or why. The release profile uses `panic = "abort"`; the hook still
//! runs first.

use std::sync::Once;

use super::console::console_error;

static INSTALL: Once = Once::new();

/// Installs the hook; later calls do nothing, so re-running init is harmless.
pub fn install() {
    INSTALL.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error(&format!("hopbench core panicked: {info}"));
        }));
    });
}
