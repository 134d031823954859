//! `hopbench terms [--out FILE]`: the JavaScript module of the terms the extension and
//! the runner share with the core (observation modes, agents, error kinds, finish
//! causes, early-stop rules, and what the core says of them), generated from the core's
//! types (`hopbench::terms`). `./build.sh terms` writes it to `extension/core-terms.js`,
//! which is checked in: the runner's unit tests import it before anything is built.

use super::schema::emit;
use super::CliError;
use std::ffi::OsString;
use std::io::Write;

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    emit("terms", args, out, hopbench::terms::core_terms_module)
}
