//! The `hopbench` command line, as a table of subcommands: adding one (sandbox, run,
//! report) is one entry in `COMMANDS` and one small module.

mod args;
mod bench_memory;
mod report;
mod sandbox;
pub mod schema;
mod signals;
mod tasks;
mod terms;
pub mod types;
mod validate;

use args::{Args, Item};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;

/// Exit status for success, a bad input file, and a usage error.
pub const EXIT_OK: u8 = 0;
pub const EXIT_FAILED: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// One subcommand: its name, argument synopsis, one-line summary and handler.
pub struct Command {
    pub name: &'static str,
    pub args: &'static str,
    pub summary: &'static str,
    /// Gets the arguments after the subcommand name; returns the exit status.
    pub run: fn(&[OsString], &mut dyn Write) -> Result<u8, CliError>,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "validate",
        args: "PATH...",
        summary: "check task files (hopbench, MMInA or WebArena; files or folders)",
        run: validate::run,
    },
    Command {
        name: "sandbox",
        args: "[--port-base N] [--host ADDR] [--parent-pid PID]",
        summary: "serve the offline sandbox websites (default ports 8600-8610) until Ctrl-C",
        run: run_sandbox,
    },
    Command {
        name: "tasks",
        args: "PATH...",
        summary: "list the tasks of files or folders as JSON lines (used by the runner)",
        run: tasks::run,
    },
    Command {
        name: "report",
        args: "DIR... [--out OUT] [--prices FILE]",
        summary: "merge run folders' results.jsonl; write summary.json and report.html (--prices: a JSON table of US dollars per million tokens per model, for costs)",
        run: report::run,
    },
    Command {
        name: "schema",
        args: "[--out FILE]",
        summary: "print (or write) the task format's JSON Schema, generated from the task types",
        run: schema::run,
    },
    Command {
        name: "agent-schema",
        args: "[--out FILE]",
        summary: "print (or write) the agent protocol's JSON Schema (requests to a person's own agent and its replies), generated from the protocol types",
        run: schema::run_agent,
    },
    Command {
        name: "types",
        args: "[--out FILE]",
        summary:
            "print (or write) TypeScript declarations of the values the wasm core gives JavaScript",
        run: types::run,
    },
    Command {
        name: "terms",
        args: "[--out FILE]",
        summary: "print (or write) the JavaScript module of the terms the extension and runner share with the core (extension/core-terms.js)",
        run: terms::run,
    },
    Command {
        name: "bench-memory",
        args: "[--records N] [--k K] [--runs R]",
        summary:
            "time the choice of procedural-memory records on a generated pool (default 10,000)",
        run: bench_memory::run,
    },
    Command {
        name: "help",
        args: "[COMMAND]",
        summary: "print this help, or one command's (also: hopbench COMMAND --help)",
        run: help,
    },
];

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("no command given")]
    NoCommand,
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// A subcommand was called wrongly (missing arguments, a path that does not exist).
    #[error("{command}: {message}")]
    Usage {
        command: &'static str,
        message: String,
    },
    /// The command was called correctly but could not do its job (a port in use).
    #[error("{0}")]
    Runtime(String),
    #[error("cannot write the output: {0}")]
    Output(#[from] io::Error),
}

/// Runs the command line `args` (without the program name) and returns the exit status.
pub fn run(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let result = match args.split_first() {
        None => Err(CliError::NoCommand),
        Some((name, rest)) => {
            let name = name.to_string_lossy();
            let name = match name.as_ref() {
                "-h" | "--help" => "help",
                other => other,
            };
            match COMMANDS.iter().find(|c| c.name == name) {
                Some(command) if command.name != "help" && asks_for_help(rest) => {
                    writeln!(out, "{}", command_help(command))
                        .map(|()| EXIT_OK)
                        .map_err(CliError::from)
                }
                Some(command) => (command.run)(rest, out),
                None => Err(CliError::UnknownCommand(name.to_string())),
            }
        }
    };
    match result {
        Ok(status) => status,
        Err(CliError::Output(e)) => {
            // Nothing more can be written to `out`; stderr may still work.
            let _ = writeln!(err, "hopbench: cannot write the output: {e}");
            EXIT_FAILED
        }
        Err(CliError::Runtime(message)) => {
            let _ = writeln!(err, "hopbench: {message}");
            EXIT_FAILED
        }
        // A subcommand called wrongly: its own synopsis says how to call it.
        Err(e @ CliError::Usage { command, .. }) => {
            let synopsis = COMMANDS
                .iter()
                .find(|c| c.name == command)
                .map_or_else(usage, |c| {
                    format!("{}\n\n(hopbench help lists every command)", command_help(c))
                });
            let _ = writeln!(err, "hopbench: {e}\n\n{synopsis}");
            EXIT_USAGE
        }
        Err(e) => {
            let _ = writeln!(err, "hopbench: {e}\n\n{}", usage());
            EXIT_USAGE
        }
    }
}

pub fn usage() -> String {
    let width = COMMANDS
        .iter()
        .map(|c| c.name.len() + c.args.len() + 1)
        .max()
        .unwrap_or(0);
    let mut text = String::from("usage: hopbench COMMAND [ARGS]\n\ncommands:\n");
    for c in COMMANDS {
        let synopsis = format!("{} {}", c.name, c.args);
        text.push_str(&format!("  {synopsis:width$}  {}\n", c.summary));
    }
    text.push_str(
        "\nexit status: 0 all ok, 1 some file is bad (validate, tasks, report) or the sandbox cannot start, 2 usage error (e.g. a path that does not exist)",
    );
    text
}

fn run_sandbox(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    sandbox::run(args, out)
}

/// `hopbench help` lists the commands; `hopbench help COMMAND` shows one.
fn help(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let Some(name) = args.first() else {
        writeln!(out, "{}", usage())?;
        return Ok(EXIT_OK);
    };
    let name = name.to_string_lossy();
    match COMMANDS.iter().find(|c| c.name == name) {
        Some(command) => {
            writeln!(out, "{}", command_help(command))?;
            Ok(EXIT_OK)
        }
        None => Err(CliError::UnknownCommand(name.into_owned())),
    }
}

/// `-h` or `--help` anywhere before a `--` (after it, they are paths).
fn asks_for_help(args: &[OsString]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-h" || a == "--help")
}

fn command_help(command: &Command) -> String {
    format!(
        "usage: hopbench {} {}

{}",
        command.name, command.args, command.summary
    )
}

/// The task files or folders given to `validate` or `tasks`, all checked before the
/// command prints anything, so a typo is not buried in output. A path that starts with
/// a dash follows `--`.
fn task_paths(command: &'static str, args: &[OsString]) -> Result<Vec<PathBuf>, CliError> {
    let mut args = Args::new(command, args);
    let mut paths = Vec::new();
    while let Some(item) = args.next()? {
        match item {
            Item::Option(o) => return Err(args.unknown(&o, "")),
            Item::Value(value) => {
                let path = PathBuf::from(value);
                if !path.exists() {
                    return Err(args.usage(format!("path does not exist: {}", path.display())));
                }
                paths.push(path);
            }
        }
    }
    if paths.is_empty() {
        return Err(args.usage("give at least one task file or folder".to_string()));
    }
    Ok(paths)
}
