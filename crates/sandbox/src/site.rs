//! What a sandbox site is: its identity row (`SiteDef`, in the table in `sites/mod.rs`)
//! and a request handler built once from the data files.

use super::http::{Req, Resp};
use super::SandboxError;
use std::sync::Arc;

/// One site of the sandbox web. `offset` is added to the port base (default 8600), so
/// its URL is fixed and task files can carry it literally.
pub struct SiteDef {
    /// Short id used in code, docs and cross-site links (`shop`, `flights`).
    pub key: &'static str,
    pub name: &'static str,
    pub tagline: &'static str,
    pub offset: u16,
    /// Header colour: each site looks different, as real sites do.
    pub accent: &'static str,
    /// The header navigation: (link text, path).
    pub nav: &'static [(&'static str, &'static str)],
    /// Every URL pattern with a short description; shown on the 404 page.
    pub routes: &'static [(&'static str, &'static str)],
    pub build: fn() -> Result<Box<dyn Site>, SandboxError>,
}

/// A site's request handler: a pure function of the request, so it is tested without a
/// socket and answers the same bytes every time.
pub trait Site: Send + Sync {
    fn handle(&self, ctx: &Ctx, req: &Req) -> Resp;
}

/// The base URL of every site, by key, for links between sites.
#[derive(Debug, Clone)]
pub struct SiteUrls(pub Vec<(&'static str, String)>);

/// What a handler knows besides the request: its own identity and the other sites.
pub struct Ctx<'a> {
    pub def: &'static SiteDef,
    pub urls: &'a Arc<SiteUrls>,
}

impl Ctx<'_> {
    /// An absolute URL on another site (`ctx.link("travel", "/destination/tokyo")`).
    pub fn link(&self, key: &str, path: &str) -> String {
        let base = self
            .urls
            .0
            .iter()
            .find(|(k, _)| *k == key)
            .map_or("", |(_, u)| u.as_str());
        format!("{base}{path}")
    }

    /// An `<a>` to another site whose text names that site, e.g.
    /// "Hotels in Tokyo (StayFinder)": an agent reading the tree sees where it leads.
    pub fn cross(&self, key: &str, path: &str, text: &str) -> String {
        let site = super::SITES
            .iter()
            .find(|d| d.key == key)
            .map_or(key, |d| d.name);
        format!(
            "<a href=\"{}\">{} ({})</a>",
            super::html::esc(&self.link(key, path)),
            super::html::esc(text),
            super::html::esc(site)
        )
    }
}
