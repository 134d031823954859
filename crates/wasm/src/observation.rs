//! Observation exports: the worker passes the CDP results as one JSON string (one
//! `JSON.stringify` in JS, one borrowed serde_json parse here: cheaper than converting
//! a JS object graph of many thousand nodes field by field) and gets a JS object back.

use hopbench::observation::{observe_json, IdRegistry, Observation, ObserveOptions};
use serde::Serialize;
use wasm_bindgen::prelude::{wasm_bindgen, JsError, JsValue};

use super::to_js_error;

#[derive(Serialize)]
struct ObserveResult<'a> {
    #[serde(flatten)]
    observation: &'a Observation,
    /// The updated ids, for the worker to store and pass to the next call.
    registry: &'a IdRegistry,
}

/// `observe(inputJson, registryJson?, optionsJson?)` →
/// `{ text, tree, images, marks, stats, registry }` (see `observation::Observation`).
#[wasm_bindgen]
pub fn observe(
    input_json: &str,
    registry_json: Option<String>,
    options_json: Option<String>,
) -> Result<JsValue, JsError> {
    let mut registry = match registry_json.as_deref() {
        Some(json) => IdRegistry::from_json(json).map_err(to_js_error)?,
        None => IdRegistry::default(),
    };
    let options: ObserveOptions = match options_json.as_deref() {
        Some(json) => serde_json::from_str(json).map_err(|e| {
            to_js_error(hopbench::observation::ObservationError::BadOptions(
                e.to_string(),
            ))
        })?,
        None => ObserveOptions::default(),
    };
    let observation = observe_json(input_json, &mut registry, &options).map_err(to_js_error)?;
    let result = ObserveResult {
        observation: &observation,
        registry: &registry,
    };
    to_js(&result)
}

/// `resolve_element(registryJson, id)` → `{ targetId, backendNodeId }`, or an error
/// naming the id when no element has it.
#[wasm_bindgen]
pub fn resolve_element(registry_json: &str, id: u32) -> Result<JsValue, JsError> {
    let registry = IdRegistry::from_json(registry_json).map_err(to_js_error)?;
    let element = registry.resolve(id).map_err(to_js_error)?;
    to_js(&element)
}

/// Plain JS objects: `#[serde(flatten)]` serialises as a map, which
/// serde-wasm-bindgen would otherwise turn into a JS `Map`; and `None` as `null`
/// (`targetId: null` = the tab itself), not `undefined`, as in the stored JSON.
fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new()
        .serialize_maps_as_objects(true)
        .serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(to_js_error)
}
