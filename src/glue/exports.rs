//! Functions callable from JS. To add one: write a `#[wasm_bindgen] pub fn` here that
//! calls the core, returning `Result<T, JsError>` (map errors with
//! `super::to_js_error`), then whitelist it in `extension/core-calls.js`.

use wasm_bindgen::prelude::wasm_bindgen;

/// `"hopbench <version>"`: lets the extension show which core it loaded and lets the
/// e2e test check that calls cross the wasm boundary.
#[wasm_bindgen]
pub fn core_version() -> String {
    format!("{} {}", env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
}

/// After a call trapped (`WebAssembly.RuntimeError`), the worker asks for the panic
/// message so the error reply says what went wrong, not just "unreachable".
#[wasm_bindgen]
pub fn take_last_panic() -> Option<String> {
    super::panic_hook::take_last_panic()
}
