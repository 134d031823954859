//! Every value crossing the boundary as a JS object goes through JSON text: serde_json
//! in Rust, the engine's `JSON.parse` / `JSON.stringify` in JS.
//!
//! Why one path: each type's `Serialize`/`Deserialize` code is compiled once per
//! serializer it is used with. The core already reads and writes JSON (task files,
//! run state, provider bodies), so routing the JS objects through the same
//! serde_json code adds no second copy of every type's serde code, which
//! serde-wasm-bindgen did (about a tenth of the wasm). The engine's JSON is also
//! faster than building a large object property by property across the boundary.

use super::Thrown;
use hopbench::boundary::CoreErrorKind;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// A plain JS value (objects, arrays, `null` for `None`) made from `value`'s JSON.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Thrown> {
    let text = serde_json::to_string(value).map_err(|e| Thrown::new(CoreErrorKind::Internal, e))?;
    js_sys::JSON::parse(&text).map_err(|_| {
        Thrown::new(
            CoreErrorKind::Internal,
            "the core made JSON that JS cannot parse",
        )
    })
}

/// The JSON text of a JS value; `undefined` reads as `null` (JSON has no `undefined`,
/// and a missing optional argument is `undefined`). `what` names the value in errors.
pub fn json_of(value: &JsValue, what: &str) -> Result<String, String> {
    if value.is_undefined() {
        return Ok("null".to_string());
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| format!("the {what} cannot be turned into JSON"))
}

/// Reads a JS value as `T` through its JSON; the error is serde_json's message
/// (which names the field or type that is wrong), without the prefix callers add.
pub fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, String> {
    let text = json_of(value, what)?;
    hopbench::json_read::from_str(&text).map_err(|e| without_position(&e))
}

/// serde_json's message without its ` at line 1 column N`: the text was made from a JS
/// value by this module, so a position in it means nothing to the caller.
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}
