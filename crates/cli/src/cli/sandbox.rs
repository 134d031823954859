//! `hopbench sandbox [--port-base N] [--host ADDR] [--parent-pid PID]`: serve the
//! offline sandbox web in the foreground until Ctrl-C or SIGTERM (or, with
//! `--parent-pid`, until that process is gone), then stop every site and exit 0.
//! Ports already served by the same sandbox: exit 3 (`EXIT_ALREADY_RUNNING`).

use super::args::{Args, Item};
use super::{CliError, EXIT_OK};
use hopbench_sandbox::identity::{probe, Identity};
use hopbench_sandbox::{Config, Sandbox, SandboxError, DEFAULT_PORT_BASE, SITES};
use std::ffi::OsString;
use std::io::Write;
use std::time::Duration;

const NAME: &str = "sandbox";

/// The ports are served by a sandbox of this version with the same data: the caller
/// can use it (the demo does) instead of starting another.
pub const EXIT_ALREADY_RUNNING: u8 = 3;

/// How long one site gets to answer the identity request when the ports are taken.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

struct Options {
    config: Config,
    /// Stop when the parent is no longer this process (it died, even by SIGKILL).
    parent: Option<u32>,
}

pub(super) fn run(args: &[OsString], out: &mut dyn Write) -> Result<u8, CliError> {
    let Options { config, parent } = parse(args)?;
    // Checked before binding as well: a parent that died while we started leaves no
    // sandbox behind for a moment either.
    if parent.is_some_and(|p| !parent_alive(p)) {
        writeln!(
            out,
            "the process that started the sandbox is gone: not starting"
        )?;
        return Ok(EXIT_OK);
    }
    let sandbox = match Sandbox::start(&config) {
        Ok(sandbox) => sandbox,
        Err(error) => return already_running(&config, error, out),
    };
    // Installed after the ports are bound: a start-up failure keeps Ctrl-C's default.
    super::signals::install();
    writeln!(out, "hopbench sandbox: {} sites\n", sandbox.urls().len())?;
    writeln!(out, "  {:<9} {:<20} URL", "KEY", "SITE")?;
    for (def, url) in sandbox.urls() {
        writeln!(out, "  {:<9} {:<20} {url}/", def.key, def.name)?;
    }
    writeln!(out, "\nready (Ctrl-C stops all sites)")?;
    out.flush()?;
    let mut orphaned = false;
    while !super::signals::stop_requested() {
        // Polled, not a parent-death signal: getppid() changes when the parent process
        // dies, whichever of its threads started us (PR_SET_PDEATHSIG fires when that
        // thread ends), and it works on every Unix.
        if parent.is_some_and(|p| !parent_alive(p)) {
            orphaned = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    sandbox.stop();
    // The parent's end of stdout may be gone with it: nothing to report to then.
    if !orphaned {
        writeln!(out, "stopped")?;
    }
    Ok(EXIT_OK)
}

#[cfg(unix)]
fn parent_alive(parent: u32) -> bool {
    std::os::unix::process::parent_id() == parent
}

/// Elsewhere the parent cannot be watched this way; the sandbox runs until stopped.
#[cfg(not(unix))]
fn parent_alive(_parent: u32) -> bool {
    true
}

/// After a failed start: when every site's port is already served by a sandbox that
/// serves the same pages, say so and exit 3; when a sandbox of another build holds
/// them, name it; otherwise the start error as it was.
fn already_running(
    config: &Config,
    error: SandboxError,
    out: &mut dyn Write,
) -> Result<u8, CliError> {
    let SandboxError::Bind { port, source, .. } = &error else {
        return Err(CliError::Runtime(error.to_string()));
    };
    if source.kind() != std::io::ErrorKind::AddrInUse {
        return Err(CliError::Runtime(error.to_string()));
    }
    let ours = Identity::ours(config.port_base);
    // The port that failed first: a foreign program there settles it in one probe.
    let ports = std::iter::once(*port).chain(
        SITES
            .iter()
            .map(|d| config.port_base + d.offset)
            .filter(|p| p != port),
    );
    let mut found: Option<Identity> = None;
    for p in ports {
        match probe(&config.host, p, PROBE_TIMEOUT) {
            Some(theirs) if found.as_ref().is_none_or(|f| *f == theirs) => found = Some(theirs),
            _ => return Err(CliError::Runtime(error.to_string())),
        }
    }
    let Some(theirs) = found else {
        return Err(CliError::Runtime(error.to_string()));
    };
    let range = format!(
        "{}:{}-{}",
        config.host,
        config.port_base,
        config.port_base + SITES.len() as u16 - 1
    );
    if !theirs.serves_the_same_as(&ours) {
        return Err(CliError::Runtime(format!(
            "{range} is served by another hopbench sandbox (version {}, data {}, pid {}) \
             than this one (version {}, data {}): stop it (kill {}) or pick other ports \
             with --port-base N",
            theirs.version, theirs.data, theirs.pid, ours.version, ours.data, theirs.pid
        )));
    }
    writeln!(
        out,
        "already running: the same hopbench sandbox ({} with the same data, pid {}) serves {range}",
        theirs.version, theirs.pid
    )?;
    Ok(EXIT_ALREADY_RUNNING)
}

fn parse(args: &[OsString]) -> Result<Options, CliError> {
    let mut config = Config::default();
    let mut parent = None;
    let mut args = Args::new(NAME, args);
    while let Some(item) = args.next()? {
        match item {
            Item::Option(o) if o == "--port-base" => {
                config.port_base = args.number(
                    &o,
                    &format!("a port number (1-65535; default {DEFAULT_PORT_BASE})"),
                    |p: &u16| *p > 0,
                )?;
            }
            Item::Option(o) if o == "--host" => {
                config.host = args
                    .value(&o, "an address, e.g. 127.0.0.1")?
                    .to_string_lossy()
                    .into_owned();
            }
            Item::Option(o) if o == "--parent-pid" => {
                parent = Some(args.number(&o, "a process id", |p: &u32| *p > 1)?);
            }
            Item::Option(o) => {
                return Err(args.unknown(&o, "--port-base N, --host ADDR, --parent-pid PID"))
            }
            Item::Value(v) => {
                return Err(args.usage(format!(
                    "unexpected argument {:?}: the sandbox takes only options",
                    v.to_string_lossy()
                )))
            }
        }
    }
    Ok(Options { config, parent })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_options() {
        let o = parse(&os(&[
            "--port-base",
            "9100",
            "--host",
            "127.0.0.2",
            "--parent-pid",
            "4242",
        ]))
        .unwrap();
        assert_eq!(
            (o.config.port_base, o.config.host.as_str(), o.parent),
            (9100, "127.0.0.2", Some(4242))
        );
        let defaults = parse(&[]).unwrap();
        assert_eq!(
            (defaults.config.port_base, defaults.parent),
            (DEFAULT_PORT_BASE, None)
        );
        assert!(parse(&os(&["--port-base", "x"])).is_err());
        assert!(parse(&os(&["--port-base"])).is_err());
        assert!(parse(&os(&["--parent-pid", "1"])).is_err());
        assert!(parse(&os(&["--parent-pid", "me"])).is_err());
        assert!(parse(&os(&["--verbose"])).is_err());
        assert!(parse(&os(&["extra"])).is_err());
        let joined = parse(&os(&["--port-base=9200", "--parent-pid=77"])).unwrap();
        assert_eq!((joined.config.port_base, joined.parent), (9200, Some(77)));
    }
}
