//! The sandbox served over real sockets: every site answers, images are valid PNGs,
//! two starts serve identical bytes, stopping frees every port, a busy port is a clear
//! error, and the CLI stops cleanly on SIGTERM.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::sandbox::{Config, Sandbox, SandboxError, SITES};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

/// Port bases handed out to this process's tests, 40 apart so they never overlap.
static NEXT: AtomicU16 = AtomicU16::new(0);

/// A base whose 11 ports are free right now (another process may still race us, so
/// callers retry through `start`).
fn free_base() -> u16 {
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

fn start() -> (Sandbox, u16) {
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

struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

/// A minimal HTTP/1.0 GET (the server closes the connection after the reply).
fn get(port: u16, path: &str) -> Reply {
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

fn port_of(base: u16, key: &str) -> u16 {
    base + SITES.iter().find(|d| d.key == key).unwrap().offset
}

#[test]
fn every_site_answers_its_home_page_and_404s_helpfully() {
    let (sandbox, base) = start();
    for def in SITES {
        let home = get(base + def.offset, "/");
        assert_eq!(home.status, 200, "{}", def.key);
        assert!(home.head.contains("text/html"));
        let body = String::from_utf8(home.body).unwrap();
        assert!(
            body.contains(&format!(
                "<title>{}</title>",
                def.name.replace('&', "&amp;")
            )),
            "{}",
            def.key
        );
        let missing = get(base + def.offset, "/nowhere");
        assert_eq!(missing.status, 404);
        assert!(String::from_utf8(missing.body)
            .unwrap()
            .contains("Pages on this site"));
    }
    let redirect = get(
        port_of(base, "events"),
        "/events/search?city=tokyo&category=food",
    );
    assert_eq!(redirect.status, 302);
    assert!(redirect
        .head
        .contains("Location: /events/tokyo?category=food"));
    // Search, filter, sort and pagination URLs over HTTP (details: src/sandbox/sites/tests.rs).
    let cheapest = String::from_utf8(
        get(
            port_of(base, "flights"),
            "/flights/search?from=TYO&to=SFO&date=2026-12-01&sort=price",
        )
        .body,
    )
    .unwrap();
    assert!(cheapest.find("EJ741") < cheapest.find("EJ779") && cheapest.contains("EJ741"));
    let page2 = String::from_utf8(
        get(
            port_of(base, "hotels"),
            "/hotels/search?city=tokyo&sort=price&page=2",
        )
        .body,
    )
    .unwrap();
    assert!(
        page2.contains("Page 2 of 2 (7 results)")
            && page2.contains("Ginza Grand Palace")
            && !page2.contains("Tokyo Bay Capsule Stay")
    );
    let vans =
        String::from_utf8(get(port_of(base, "cars"), "/cars/search?city=paris&type=van").body)
            .unwrap();
    assert!(vans.contains("Nomad Van") && !vans.contains("Piccolo Hatch"));
    // Only GET: every form in the sandbox is a GET form.
    let mut post = TcpStream::connect(("127.0.0.1", base)).unwrap();
    write!(post, "POST / HTTP/1.0\r\nContent-Length: 0\r\n\r\n").unwrap();
    let mut raw = String::new();
    post.read_to_string(&mut raw).unwrap();
    assert!(
        raw.starts_with("HTTP/1.0 405") || raw.starts_with("HTTP/1.1 405"),
        "{raw}"
    );
    // Cross-site links carry this run's ports.
    let article = String::from_utf8(get(base, "/wiki/Paris").body).unwrap();
    assert!(article.contains(&format!(
        "http://127.0.0.1:{}/destination/paris",
        port_of(base, "travel")
    )));
    sandbox.stop();
}

/// Walks the chunks of a PNG, checking each CRC; returns (width, height, inflated IDAT).
fn parse_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut size, mut idat) = (8, (0, 0), Vec::new());
    loop {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(
            crc,
            hopbench::sandbox::png::crc32(&bytes[at + 4..at + 8 + len])
        );
        match kind {
            b"IHDR" => {
                size = (
                    u32::from_be_bytes(data[..4].try_into().unwrap()),
                    u32::from_be_bytes(data[4..8].try_into().unwrap()),
                )
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
    }
    (
        size.0,
        size.1,
        miniz_oxide::inflate::decompress_to_vec_zlib(&idat).unwrap(),
    )
}

#[test]
fn images_are_valid_pngs() {
    let (sandbox, base) = start();
    for (key, path) in [
        ("wiki", "/img/Golden_Gate_Bridge.png"),
        ("cars", "/img/kestrel-mini.png"),
        ("videos", "/img/a1Bc2De3Fg4.png"),
    ] {
        let reply = get(port_of(base, key), path);
        assert_eq!(reply.status, 200);
        assert!(reply.head.contains("image/png"));
        let (w, h, raw) = parse_png(&reply.body);
        assert_eq!(
            raw.len() as u32,
            (w * 3 + 1) * h,
            "{path}: one filter byte + RGB per row"
        );
    }
    sandbox.stop();
}

const SAMPLE: &[(&str, &str)] = &[
    ("wiki", "/wiki/Tokyo"),
    ("shop", "/search?q=shirt&sort=price_asc"),
    ("shop", "/img/everyday-cotton-t-shirt/navy.png"),
    ("flights", "/flights/search?from=LON&to=PAR&date=2026-12-01"),
    ("flights", "/booking?flight=EJ741&date=2026-12-01&name=Ada"),
    (
        "hotels",
        "/hotels/search?city=paris&checkin=2026-12-01&checkout=2026-12-03",
    ),
    ("cars", "/cars/search?city=rome"),
    ("events", "/events/paris"),
    ("recipes", "/recipe/pavlova"),
    ("currency", "/convert?amount=10&from=GBP&to=THB"),
    ("travel", "/img/sydney.png"),
    ("food", "/restaurants/tokyo"),
    ("videos", "/watch?v=Ty6Re4Wq2Ea"),
];

#[test]
fn two_starts_serve_identical_bytes_and_stop_frees_the_ports() {
    let (first, base) = start();
    let fetch = || -> Vec<Vec<u8>> {
        SAMPLE
            .iter()
            .map(|(k, p)| get(port_of(base, k), p).body)
            .collect()
    };
    let before = fetch();
    first.stop();
    for i in 0..SITES.len() as u16 {
        assert!(
            TcpListener::bind(("127.0.0.1", base + i)).is_ok(),
            "port {} still busy after stop",
            base + i
        );
    }
    let second = Sandbox::start(&Config {
        host: "127.0.0.1".into(),
        port_base: base,
    })
    .unwrap();
    let after = fetch();
    second.stop();
    for ((key, path), (a, b)) in SAMPLE.iter().zip(before.iter().zip(&after)) {
        assert!(a.len() > 500, "{key} {path}");
        assert!(a == b, "{key} {path} differs between starts");
    }
}

#[test]
fn a_busy_port_names_the_port_and_the_site() {
    let base = free_base();
    let hotels = base + 3;
    let _busy = TcpListener::bind(("127.0.0.1", hotels)).unwrap();
    let err = Sandbox::start(&Config {
        host: "127.0.0.1".into(),
        port_base: base,
    })
    .err()
    .unwrap();
    let text = err.to_string();
    assert!(
        text.contains(&hotels.to_string())
            && text.contains("StayFinder")
            && text.contains("already in use"),
        "{text}"
    );
    // The sites started before the failure were stopped again.
    assert!(TcpListener::bind(("127.0.0.1", base)).is_ok());
}

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

#[test]
fn every_site_answers_the_sandbox_identity() {
    let (sandbox, base) = start();
    let ours = hopbench::sandbox::identity::Identity::ours(base);
    for def in SITES {
        let reply = get(
            base + def.offset,
            hopbench::sandbox::identity::IDENTITY_PATH,
        );
        assert_eq!(reply.status, 200, "{}", def.key);
        assert!(reply.head.contains("Content-Type: application/json"));
        let theirs: hopbench::sandbox::identity::Identity =
            serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(theirs, ours, "{}", def.key);
    }
    sandbox.stop();
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
