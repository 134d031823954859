//! The task format's JSON Schema, generated from the types (`schema` feature, which only
//! the CLI enables, so schemars never reaches the wasm). Field descriptions are the
//! types' doc comments. `hopbench schema --out schema/task.schema.json` writes it; a CLI
//! test keeps that file current and checks it against the bundled tasks.

use super::Task;
use serde_json::Value;

/// Where editors find the schema; `.invalid` because it is not served anywhere.
const ID: &str = "https://hopbench.invalid/schema/task.schema.json";

pub fn task_schema() -> Value {
    let mut schema = schemars::schema_for!(Task);
    schema.insert("$id".to_string(), Value::from(ID));
    schema.insert("title".to_string(), Value::from("hopbench task"));
    let mut value = schema.to_value();
    unwrap_descriptions(&mut value);
    value
}

/// Doc comments are wrapped at 90 columns; an editor's tooltip wraps by itself, so a
/// single line break becomes a space (a blank line, a new paragraph, stays).
pub(crate) fn unwrap_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(text) if key == "description" => *text = unwrap(text),
                    _ => unwrap_descriptions(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unwrap_descriptions),
        _ => {}
    }
}

fn unwrap(text: &str) -> String {
    text.split("\n\n")
        .map(|paragraph| {
            paragraph
                .split('\n')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}
