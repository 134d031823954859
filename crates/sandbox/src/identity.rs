//! Which sandbox is serving a port: every site answers `GET /__hopbench/sandbox` with
//! a small JSON identity (service, version, a fingerprint of the data it serves, its
//! pid and port base). `hopbench sandbox` reads it when its ports are taken, to tell
//! "the same sandbox is already running" (the demo then uses it) from "another program
//! holds the ports" (an error, as before). Details: docs/sandbox.md.

use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The identity's path on every site. Under a prefix no site uses, so it cannot shadow
/// a page a task links to.
pub const IDENTITY_PATH: &str = "/__hopbench/sandbox";
const SERVICE: &str = "hopbench-sandbox";

/// The data files compiled into the sites (each site module includes its own): the
/// fingerprint covers all of them, so two builds that would serve different pages
/// never pass for the same sandbox. A test checks the list against `crates/sandbox/data/`.
const DATA: &[(&str, &str)] = &[
    ("cars.json", include_str!("../data/cars.json")),
    ("cities.json", include_str!("../data/cities.json")),
    ("currency.json", include_str!("../data/currency.json")),
    ("events.json", include_str!("../data/events.json")),
    ("flights.json", include_str!("../data/flights.json")),
    ("hotels.json", include_str!("../data/hotels.json")),
    ("recipes.json", include_str!("../data/recipes.json")),
    ("restaurants.json", include_str!("../data/restaurants.json")),
    ("shop.json", include_str!("../data/shop.json")),
    ("travel.json", include_str!("../data/travel.json")),
    ("videos.json", include_str!("../data/videos.json")),
    ("wiki.json", include_str!("../data/wiki.json")),
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Always `hopbench-sandbox`.
    pub service: String,
    /// The crate version of the binary serving.
    pub version: String,
    /// FNV-1a 64 of the data files' names and contents, in hex.
    pub data: String,
    pub pid: u32,
    pub port_base: u16,
}

impl Identity {
    /// This process's identity when serving from `port_base`.
    pub fn ours(port_base: u16) -> Identity {
        Identity {
            service: SERVICE.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            data: data_fingerprint(),
            pid: std::process::id(),
            port_base,
        }
    }

    /// Serves the same pages as `other` would: same version and data. Pid and port
    /// base are where it runs, not what it serves.
    pub fn serves_the_same_as(&self, other: &Identity) -> bool {
        self.service == other.service && self.version == other.version && self.data == other.data
    }

    pub fn to_json(&self) -> String {
        // Plain strings and numbers: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// FNV-1a 64 over every data file's name and contents, as 16 hex digits.
pub fn data_fingerprint() -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in DATA {
        for &b in name
            .as_bytes()
            .iter()
            .chain([0u8].iter())
            .chain(text.as_bytes())
        {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// Asks `host:port` for its sandbox identity. None when nothing answers in time, or
/// what answers is not a hopbench sandbox (any other server, a 404, not our JSON).
pub fn probe(host: &str, port: u16, timeout: Duration) -> Option<Identity> {
    let addr = (host, port).to_socket_addrs().ok()?.next()?;
    let mut stream = TcpStream::connect_timeout(&addr, timeout).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    stream.set_write_timeout(Some(timeout)).ok()?;
    write!(
        stream,
        "GET {IDENTITY_PATH} HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n"
    )
    .ok()?;
    let mut reply = Vec::new();
    stream.take(64 * 1024).read_to_end(&mut reply).ok()?;
    let reply = String::from_utf8_lossy(&reply);
    let (head, body) = reply.split_once("\r\n\r\n")?;
    let status_ok = head
        .lines()
        .next()
        .is_some_and(|line| line.split(' ').nth(1) == Some("200"));
    if !status_ok {
        return None;
    }
    serde_json::from_str::<Identity>(body)
        .ok()
        .filter(|identity| identity.service == SERVICE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_file_is_in_the_fingerprint() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".json"))
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = DATA.iter().map(|(name, _)| *name).collect();
        assert_eq!(on_disk, listed);
    }

    #[test]
    fn identities_compare_what_they_serve() {
        let ours = Identity::ours(8600);
        assert_eq!(ours.data.len(), 16);
        let elsewhere = Identity {
            pid: ours.pid + 1,
            port_base: 9600,
            ..ours.clone()
        };
        assert!(ours.serves_the_same_as(&elsewhere));
        let older = Identity {
            version: "0.0.1".into(),
            ..ours.clone()
        };
        assert!(!ours.serves_the_same_as(&older));
        let parsed: Identity = serde_json::from_str(&ours.to_json()).unwrap();
        assert_eq!(parsed, ours);
    }
}
