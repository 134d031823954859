//! The offline sandbox web: a dozen small fictional websites (encyclopedia, shop,
//! flights, hotels, car hire, events, recipes, currency, travel guide, food guide,
//! videos) served on fixed 127.0.0.1 ports, so tasks can hop across sites without the
//! internet. Native only: the extension's wasm never contains it.
//!
//! Content comes from `crates/sandbox/data/*.json` (compiled in) and images are drawn from
//! specs in that data, so every start serves byte-identical pages. Site list, ports and
//! URL patterns: `docs/sandbox.md`; the table itself is `sites::SITES`.

mod date;
mod draw;
pub mod favicon;
mod font;
pub mod html;
pub mod http;
pub mod identity;
pub mod png;
mod server;
pub mod shapes;
pub mod site;
pub mod sites;
mod wire;

use server::Running;
use site::{SiteDef, SiteUrls};
use std::sync::Arc;

pub use sites::SITES;

/// The default port base: site N listens on 8600 + its offset.
pub const DEFAULT_PORT_BASE: u16 = 8600;
pub const DEFAULT_HOST: &str = "127.0.0.1";

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("{site} cannot listen on {host}:{port}: {}", bind_hint(.source))]
    Bind {
        site: &'static str,
        host: String,
        port: u16,
        source: std::io::Error,
    },
    #[error("port base {base} is too high: the last site would need port {base} + {offset}")]
    PortRange { base: u16, offset: u16 },
    #[error("crates/sandbox/data/{file} is invalid: {message}")]
    Data { file: &'static str, message: String },
    #[error("cannot start the server for {0}")]
    Server(String),
}

fn bind_hint(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::AddrInUse {
        "the port is already in use (is another sandbox running? stop it, or pick other \
         ports with --port-base N)"
            .to_string()
    } else {
        e.to_string()
    }
}

/// Where to listen: `host` and the port base the site offsets are added to.
#[derive(Debug, Clone)]
pub struct Config {
    pub host: String,
    pub port_base: u16,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: DEFAULT_HOST.to_string(),
            port_base: DEFAULT_PORT_BASE,
        }
    }
}

/// The URL of every site for a config, in table order, without starting anything.
pub fn site_urls(config: &Config) -> Result<Vec<(&'static SiteDef, String)>, SandboxError> {
    SITES
        .iter()
        .map(|def| {
            let port = config
                .port_base
                .checked_add(def.offset)
                .ok_or(SandboxError::PortRange {
                    base: config.port_base,
                    offset: def.offset,
                })?;
            Ok((def, format!("http://{}:{port}", config.host)))
        })
        .collect()
}

/// All sites, listening. Dropping it (or `stop`) closes every listener and joins the
/// request threads.
pub struct Sandbox {
    running: Vec<Running>,
}

impl Sandbox {
    /// Loads every site's data, then binds every port; any failure stops the sites
    /// already started and is returned, naming the site and port.
    pub fn start(config: &Config) -> Result<Sandbox, SandboxError> {
        let urls = site_urls(config)?;
        let shared = Arc::new(SiteUrls(
            urls.iter().map(|(d, u)| (d.key, u.clone())).collect(),
        ));
        // Build every handler before binding: a data error should not leave ports open.
        let mut handlers = Vec::with_capacity(SITES.len());
        for def in SITES {
            handlers.push((def, (def.build)()?));
        }
        let identity: Arc<str> = Arc::from(identity::Identity::ours(config.port_base).to_json());
        let mut running = Vec::with_capacity(SITES.len());
        for (def, handler) in handlers {
            let port = config.port_base + def.offset; // checked in site_urls
            running.push(Running::start(
                def,
                handler,
                &config.host,
                port,
                Arc::clone(&shared),
                Arc::clone(&identity),
            )?);
        }
        Ok(Sandbox { running })
    }

    /// (site, base URL) of every running site, in table order.
    pub fn urls(&self) -> Vec<(&'static SiteDef, &str)> {
        self.running
            .iter()
            .map(|r| (r.def, r.url.as_str()))
            .collect()
    }

    pub fn url_of(&self, key: &str) -> Option<&str> {
        self.running
            .iter()
            .find(|r| r.def.key == key)
            .map(|r| r.url.as_str())
    }

    /// Stops every site and waits for its thread.
    pub fn stop(mut self) {
        for r in &mut self.running {
            r.stop();
        }
    }
}
