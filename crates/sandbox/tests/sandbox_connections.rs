//! The sandbox answers every new connection at once while browsers keep theirs open.
//! The server it had before (tiny_http 0.12) now and then left a new connection queued
//! behind idle keep-alive ones: Chromium then waited minutes for one picture. This
//! replays that load: bursts of parallel requests whose clients keep their sockets.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod support;

use hopbench_sandbox::SITES;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use support::start;

/// One HTTP/1.1 GET (which keeps the connection open unless the server closes it);
/// returns the status and the socket, which the caller keeps like a browser would.
fn get_keeping(port: u16, path: &str) -> Result<(u16, TcpStream), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: keep-alive\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    let mut chunk = [0u8; 4096];
    // Read by Content-Length, not to EOF: a keep-alive server never sends EOF.
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            if raw.len() >= end + 4 + length {
                let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
                return Ok((status, stream));
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err(format!("closed after {} bytes", raw.len())),
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) => return Err(format!("no complete reply within 3 s ({e})")),
        }
    }
}

#[test]
fn new_connections_are_answered_while_clients_keep_theirs_open() {
    let (_sandbox, base) = start();
    let shop = base + SITES.iter().find(|d| d.key == "shop").unwrap().offset;
    let mut kept = Vec::new();
    let mut failures = Vec::new();
    let started = Instant::now();
    for burst in 0..60 {
        let clients: Vec<_> = (0..6)
            .map(|i| std::thread::spawn(move || (i, get_keeping(shop, "/img/merino-beanie.png"))))
            .collect();
        for client in clients {
            match client.join().unwrap() {
                (_, Ok((200, stream))) => kept.push(stream),
                (i, Ok((status, _))) => {
                    failures.push(format!("burst {burst} client {i}: status {status}"))
                }
                (i, Err(e)) => failures.push(format!("burst {burst} client {i}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 360 requests failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(kept.len(), 360);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "360 requests took {:?}",
        started.elapsed()
    );
}
