//! `hopbench sandbox [--port-base N] [--host ADDR]`: serve the offline sandbox web in
//! the foreground until Ctrl-C or SIGTERM, then stop every site and exit 0.

use super::{CliError, EXIT_OK};
use crate::sandbox::{Config, Sandbox, DEFAULT_PORT_BASE};
use std::ffi::OsString;
use std::io::Write;
use std::time::Duration;

const NAME: &str = "sandbox";

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let config = parse(args)?;
    let sandbox = Sandbox::start(&config).map_err(|e| CliError::Runtime(e.to_string()))?;
    // Installed after the ports are bound: a start-up failure keeps Ctrl-C's default.
    super::signals::install();
    writeln!(out, "hopbench sandbox: {} sites\n", sandbox.urls().len())?;
    writeln!(out, "  {:<9} {:<20} URL", "KEY", "SITE")?;
    for (def, url) in sandbox.urls() {
        writeln!(out, "  {:<9} {:<20} {url}/", def.key, def.name)?;
    }
    writeln!(out, "\nready (Ctrl-C stops all sites)")?;
    out.flush()?;
    while !super::signals::stop_requested() {
        std::thread::sleep(Duration::from_millis(100));
    }
    sandbox.stop();
    writeln!(out, "stopped")?;
    Ok(EXIT_OK)
}

fn parse(args: &[OsString]) -> Result<Config, CliError> {
    let mut config = Config::default();
    let mut it = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port-base" => {
                let value = it
                    .next()
                    .ok_or_else(|| usage("--port-base needs a number"))?;
                config.port_base = value
                    .parse()
                    .ok()
                    .filter(|p| *p > 0)
                    .ok_or_else(|| usage(&format!("--port-base: {value:?} is not a port number (1-65535; default {DEFAULT_PORT_BASE})")))?;
            }
            "--host" => {
                config.host = it
                    .next()
                    .ok_or_else(|| usage("--host needs an address, e.g. 127.0.0.1"))?;
            }
            other => {
                return Err(usage(&format!(
                    "unknown argument {other:?} (options: --port-base N, --host ADDR)"
                )))
            }
        }
    }
    Ok(config)
}

fn usage(message: &str) -> CliError {
    CliError::Usage {
        command: NAME,
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_options() {
        let c = parse(&os(&["--port-base", "9100", "--host", "127.0.0.2"])).unwrap();
        assert_eq!((c.port_base, c.host.as_str()), (9100, "127.0.0.2"));
        assert_eq!(parse(&[]).unwrap().port_base, DEFAULT_PORT_BASE);
        assert!(parse(&os(&["--port-base", "x"])).is_err());
        assert!(parse(&os(&["--port-base"])).is_err());
        assert!(parse(&os(&["--verbose"])).is_err());
    }
}
