//! Errors leaving the core cross the boundary as `JsError`, so JS receives a real
//! `Error` whose `message` is the core error's `Display` text.

use std::fmt::Display;
use wasm_bindgen::JsError;

/// Wraps any displayable core error; the JS caller sees `err.message`.
pub fn to_js_error(err: impl Display) -> JsError {
    JsError::new(&err.to_string())
}
