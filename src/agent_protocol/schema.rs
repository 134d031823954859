//! The agent protocol's JSON Schema, generated from the types (`schema` feature, CLI
//! only): one document whose `$defs` hold the two requests and the two replies, so an
//! agent's author can validate what they receive and what they send. `hopbench
//! agent-schema --out schema/agent-protocol.schema.json` writes it; a CLI test keeps
//! the file current.

use super::{HelloReply, HelloRequest, StepReply, StepRequest, PROTOCOL_VERSION};
use serde_json::{json, Value};

const ID: &str = "https://hopbench.invalid/schema/agent-protocol.schema.json";

pub fn agent_protocol_schema() -> Value {
    let mut generator = schemars::SchemaGenerator::default();
    // Each call adds the type (and all it holds) to the definitions taken below; the
    // `$ref`s they return are not needed.
    let _ = generator.subschema_for::<HelloRequest>();
    let _ = generator.subschema_for::<StepRequest>();
    let _ = generator.subschema_for::<HelloReply>();
    let _ = generator.subschema_for::<StepReply>();
    let mut defs = Value::Object(generator.take_definitions(true));
    crate::task::unwrap_schema_descriptions(&mut defs);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": format!("hopbench agent protocol {PROTOCOL_VERSION}"),
        "description": "Requests hopbench POSTs to an agent (HelloRequest, StepRequest) and \
                        the replies it reads (HelloReply, StepReply). See docs/agent-protocol.md.",
        "$defs": defs,
    })
}
