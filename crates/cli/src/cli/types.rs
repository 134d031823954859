//! `hopbench types [--out FILE]`: TypeScript declarations of what crosses the wasm
//! boundary (agent commands and events, progress, verdict, call outcomes, the
//! observation), generated from the core's types. `./build.sh` writes them to
//! `pkg/core-types.d.ts`, which the extension's JSDoc imports.

use super::schema::emit;
use super::CliError;
use std::ffi::OsString;
use std::io::Write;

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    emit("types", args, out, hopbench::typescript::declarations)
}
