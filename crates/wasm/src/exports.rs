//! Functions callable from JS. To add one: write a `#[wasm_bindgen] pub fn` here that
//! calls the core, returning `Result<T, Thrown>` (a core error becomes a `Thrown` with
//! its kind: `error.rs`), then whitelist it in `extension/core-calls.js`.

use hopbench::boundary::CoreErrorKind;
use wasm_bindgen::prelude::wasm_bindgen;

/// `"hopbench <version>"`: lets the extension show which core it loaded and lets the
/// e2e test check that calls cross the wasm boundary.
#[wasm_bindgen]
pub fn core_version() -> String {
    hopbench::NAME_AND_VERSION.to_string()
}

/// After a call trapped (`WebAssembly.RuntimeError`), the worker asks for the panic
/// message so the error reply says what went wrong, not just "unreachable".
#[wasm_bindgen]
pub fn take_last_panic() -> Option<String> {
    super::panic_hook::take_last_panic()
}

/// `{id, intent, hops, sites, replayable, format}` of a task file's text, for the
/// popup's task picker; an error names the file and what is wrong in it.
#[wasm_bindgen]
pub fn task_overview(
    task_text: &str,
    file_name: &str,
) -> Result<wasm_bindgen::JsValue, super::Thrown> {
    let overview = hopbench::task::overview_from_text(task_text, file_name)
        .map_err(|e| super::Thrown::new(CoreErrorKind::Task, e))?;
    super::js::to_js(&overview)
}
