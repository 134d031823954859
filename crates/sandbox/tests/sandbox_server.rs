//! The sandbox served over real sockets: every site answers, images are valid PNGs,
//! two starts serve identical bytes, stopping frees every port, and a busy port is a
//! clear error. The `hopbench sandbox` command is tested with the CLI (crates/cli).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

mod support;

use hopbench_sandbox::{Config, Sandbox, SITES};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use support::{free_base, get, port_of, start};

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
            hopbench_sandbox::png::crc32(&bytes[at + 4..at + 8 + len])
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
fn every_site_answers_the_sandbox_identity() {
    let (sandbox, base) = start();
    let ours = hopbench_sandbox::identity::Identity::ours(base);
    for def in SITES {
        let reply = get(base + def.offset, hopbench_sandbox::identity::IDENTITY_PATH);
        assert_eq!(reply.status, 200, "{}", def.key);
        assert!(reply.head.contains("Content-Type: application/json"));
        let theirs: hopbench_sandbox::identity::Identity =
            serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(theirs, ours, "{}", def.key);
    }
    sandbox.stop();
}

#[test]
fn every_site_answers_its_tab_icon_in_its_own_colour() {
    let (sandbox, base) = start();
    let mut icons = Vec::new();
    for def in SITES {
        let reply = get(base + def.offset, hopbench_sandbox::favicon::FAVICON_PATH);
        assert_eq!(reply.status, 200, "{}", def.key);
        assert!(
            reply.head.contains("image/png"),
            "{}: {}",
            def.key,
            reply.head
        );
        let (w, h, raw) = parse_png(&reply.body);
        assert_eq!((w, h), (32, 32), "{}", def.key);
        let pixel = |x: usize, y: usize| {
            let at = y * (w as usize * 3 + 1) + 1 + x * 3;
            [raw[at], raw[at + 1], raw[at + 2]]
        };
        let accent = hopbench_sandbox::favicon::hex_colour(def.accent).unwrap();
        assert_eq!(
            pixel(0, 0),
            accent,
            "{}: corner in the header colour",
            def.key
        );
        let white = (0..32)
            .flat_map(|y| (0..32).map(move |x| (x, y)))
            .filter(|&(x, y)| pixel(x, y) == [255, 255, 255])
            .count();
        assert!(
            white > 40,
            "{}: the letter is drawn ({white} white pixels)",
            def.key
        );
        icons.push(reply.body);
    }
    icons.sort();
    icons.dedup();
    assert_eq!(icons.len(), SITES.len(), "no two sites share an icon");
    sandbox.stop();
}
