//! Starting a sandbox on free ports and fetching from it: shared by the sandbox's
//! own tests and the CLI's `hopbench sandbox` tests.

#![allow(
    dead_code,
    reason = "each test file uses its own subset of the helpers"
)]

use hopbench_sandbox::{Config, Sandbox, SandboxError, SITES};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU16, Ordering};

/// Port bases handed out to this process's tests, 40 apart so they never overlap.
static NEXT: AtomicU16 = AtomicU16::new(0);

/// A base whose 11 ports are free right now (another process may still race us, so
/// callers retry through `start`).
pub fn free_base() -> u16 {
    loop {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let base = 20_000 + ((std::process::id() as u16 % 500) * 40 + n * 40) % 40_000;
        let all_free =
            (0..SITES.len() as u16).all(|i| TcpListener::bind(("127.0.0.1", base + i)).is_ok());
        if all_free {
            return base;
        }
    }
}

pub fn start() -> (Sandbox, u16) {
    for _ in 0..20 {
        let base = free_base();
        let config = Config {
            host: "127.0.0.1".into(),
            port_base: base,
        };
        match Sandbox::start(&config) {
            Ok(s) => return (s, base),
            Err(SandboxError::Bind { .. }) => continue,
            Err(e) => panic!("{e}"),
        }
    }
    panic!("no free port range found");
}

pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

/// A minimal HTTP/1.0 GET (the server closes the connection after the reply).
pub fn get(port: u16, path: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        head,
        body: raw[split + 4..].to_vec(),
    }
}

pub fn port_of(base: u16, key: &str) -> u16 {
    base + SITES.iter().find(|d| d.key == key).unwrap().offset
}
