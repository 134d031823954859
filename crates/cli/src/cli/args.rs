//! The subcommands' argument reader. lexopt does the lexing (`--opt value`,
//! `--opt=value`, `--` before paths that start with a dash, paths that are not UTF-8);
//! this keeps the messages ours: each names the subcommand, the option and the value.

use super::CliError;
use lexopt::{Arg, Parser};
use std::ffi::OsString;
use std::str::FromStr;

/// One argument: an option spelled as typed (`--port-base`, `-x`) or a plain value.
pub(super) enum Item {
    Option(String),
    Value(OsString),
}

pub(super) struct Args {
    command: &'static str,
    parser: Parser,
}

impl Args {
    pub fn new(command: &'static str, args: &[OsString]) -> Args {
        Args {
            command,
            parser: Parser::from_args(args.iter().cloned()),
        }
    }

    pub fn next(&mut self) -> Result<Option<Item>, CliError> {
        let item = match self.parser.next() {
            Ok(None) => None,
            Ok(Some(Arg::Long(name))) => Some(Item::Option(format!("--{name}"))),
            Ok(Some(Arg::Short(c))) => Some(Item::Option(format!("-{c}"))),
            Ok(Some(Arg::Value(value))) => Some(Item::Value(value)),
            // `--flag=value` for an option that takes no value, or the like.
            Err(e) => return Err(self.usage(e.to_string())),
        };
        Ok(item)
    }

    /// The value of `option` (the next argument, or what follows `=`).
    pub fn value(&mut self, option: &str, what: &str) -> Result<OsString, CliError> {
        self.parser
            .value()
            .map_err(|_| self.usage(format!("{option} needs {what}")))
    }

    /// The value of `option` as a number that `accept` allows; `what` describes the
    /// allowed values for the message (`a port number (1-65535)`).
    pub fn number<T: FromStr>(
        &mut self,
        option: &str,
        what: &str,
        accept: impl Fn(&T) -> bool,
    ) -> Result<T, CliError> {
        let raw = self.value(option, what)?;
        let text = raw.to_string_lossy();
        text.parse()
            .ok()
            .filter(|n| accept(n))
            .ok_or_else(|| self.usage(format!("{option}: {text:?} is not {what}")))
    }

    /// An option this subcommand does not have; `known` lists those it has.
    pub fn unknown(&self, option: &str, known: &str) -> CliError {
        let known = if known.is_empty() {
            "it takes none".to_string()
        } else {
            format!("options: {known}")
        };
        self.usage(format!("unknown option {option} ({known})"))
    }

    pub fn usage(&self, message: String) -> CliError {
        CliError::Usage {
            command: self.command,
            message,
        }
    }
}
