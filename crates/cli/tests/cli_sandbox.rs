//! `hopbench sandbox`: prints the site table, stops on SIGTERM and when its parent is
//! killed, and names a busy port or an already running sandbox.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

#[path = "../../sandbox/tests/support/mod.rs"]
mod support;

use hopbench_sandbox::SITES;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;
use support::{free_base, get, port_of, start};

#[test]
fn the_cli_prints_the_table_and_stops_on_sigterm() {
    let base = free_base();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .args(["sandbox", "--port-base", &base.to_string()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Lines arrive through a channel so every wait below is bounded.
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let wait = Duration::from_secs(20);
    let mut seen = String::new();
    while !seen.contains("ready") {
        match rx.recv_timeout(wait) {
            Ok(line) => seen.push_str(&(line + "\n")),
            Err(_) => {
                let _ = child.kill();
                panic!("no ready line within {wait:?}: {seen}");
            }
        }
    }
    assert!(
        seen.contains(&format!("http://127.0.0.1:{}/", port_of(base, "videos"))),
        "{seen}"
    );
    assert_eq!(get(port_of(base, "currency"), "/").status, 200);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let last = rx.recv_timeout(wait);
    let deadline = std::time::Instant::now() + wait;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the sandbox did not exit after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    assert_eq!(last.as_deref(), Ok("stopped"));
}

#[test]
fn the_cli_reports_a_busy_port_and_exits_1() {
    let base = free_base();
    let _busy = TcpListener::bind(("127.0.0.1", base + 5)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .args(["sandbox", "--port-base", &base.to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "CityEvents cannot listen on 127.0.0.1:{}",
            base + 5
        )),
        "{err}"
    );
}

/// A second `hopbench sandbox` on ports the same sandbox already serves says so and
/// exits 3 (the demo then uses the running one); the first keeps serving.
#[test]
fn the_cli_on_ports_of_the_same_sandbox_says_already_running_and_exits_3() {
    let (sandbox, base) = start();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hopbench"))
        .args(["sandbox", "--port-base", &base.to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = format!(
        "already running: the same hopbench sandbox ({} with the same data, pid {}) serves 127.0.0.1:{base}-{}",
        env!("CARGO_PKG_VERSION"),
        std::process::id(),
        base + SITES.len() as u16 - 1
    );
    assert!(stdout.contains(&expected), "{stdout}");
    assert_eq!(get(port_of(base, "shop"), "/").status, 200);
    sandbox.stop();
}

/// `--parent-pid`: the sandbox stops by itself once that process is gone, even when it
/// was killed with SIGKILL and had no chance to stop it, and frees its ports.
#[cfg(target_os = "linux")]
#[test]
fn the_cli_stops_when_its_parent_is_killed() {
    let base = free_base();
    // A shell is the parent: it starts the sandbox in the background with its own pid,
    // prints the sandbox's pid, and becomes a `sleep` (same pid) waiting to be killed.
    let script = format!(
        "{} sandbox --port-base {base} --parent-pid $$ >/dev/null 2>&1 & echo $!; exec sleep 60",
        env!("CARGO_BIN_EXE_hopbench")
    );
    let mut shell = std::process::Command::new("sh")
        .args(["-c", &script])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(shell.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let sandbox_pid: u32 = line.trim().parse().unwrap();
    let shop = port_of(base, "shop");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", shop)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the sandbox never served"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    shell.kill().unwrap(); // SIGKILL
    shell.wait().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while running(sandbox_pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "the sandbox (pid {sandbox_pid}) still runs 10 s after its parent was killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for i in 0..SITES.len() as u16 {
        assert!(
            TcpListener::bind(("127.0.0.1", base + i)).is_ok(),
            "port {} still busy after the sandbox stopped",
            base + i
        );
    }
}

/// Alive and not a zombie: an orphan that exited waits in /proc, state Z, until init
/// reaps it.
#[cfg(target_os = "linux")]
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            state != Some("Z")
        }
        Err(_) => false,
    }
}
