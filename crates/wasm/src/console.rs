//! Bindings to the JS console, without pulling in web-sys for two functions.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    /// `console.error(message)`: shows in the service worker's or page's devtools and
    /// is collected by the e2e harness as an error.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    pub fn console_error(message: &str);
}
