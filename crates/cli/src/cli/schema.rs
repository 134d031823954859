//! `hopbench schema [--out FILE]`: the task format's JSON Schema, generated from the
//! core's task types; `hopbench agent-schema [--out FILE]`: the agent protocol's, from
//! its types. Without `--out` they go to stdout.

use super::args::{Args, Item};
use super::{CliError, EXIT_OK};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

const NAME: &str = "schema";

/// The schema as the checked-in file holds it: pretty JSON and a final newline.
pub fn task_schema_text() -> String {
    let schema = hopbench::task::task_schema();
    // A `Value` always serialises; the fallback only keeps `expect` out.
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    format!("{text}\n")
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    emit(NAME, args, out, task_schema_text)
}

/// The agent protocol's schema as `schema/agent-protocol.schema.json` holds it.
pub fn agent_schema_text() -> String {
    let schema = hopbench::agent_protocol::agent_protocol_schema();
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    format!("{text}\n")
}

pub(super) fn run_agent(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    emit("agent-schema", args, out, agent_schema_text)
}

/// A generated file's command (`schema`, `types`, `terms`): `--out FILE` writes it there,
/// without it the text goes to stdout.
pub(super) fn emit(
    name: &'static str,
    args: &[OsString],
    out: &mut dyn Write,
    text: impl FnOnce() -> String,
) -> Result<u8, CliError> {
    let mut target: Option<PathBuf> = None;
    let mut args = Args::new(name, args);
    while let Some(item) = args.next()? {
        match item {
            Item::Option(o) if o == "--out" => target = Some(args.value(&o, "a file")?.into()),
            Item::Option(o) => return Err(args.unknown(&o, "--out FILE")),
            Item::Value(v) => {
                return Err(args.usage(format!(
                    "unexpected argument {:?} (write to a file with --out FILE)",
                    v.to_string_lossy()
                )))
            }
        }
    }
    let text = text();
    match target {
        None => out.write_all(text.as_bytes())?,
        Some(path) => {
            std::fs::write(&path, &text)
                .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", path.display())))?;
            writeln!(out, "wrote {}", path.display())?;
        }
    }
    Ok(EXIT_OK)
}
