//! Web origins (`scheme://host[:port]`) in the form a browser serialises them, so
//! the extension can compare them with `new URL(url).origin` and turn them into
//! request-blocking rules without reparsing.

use crate::condition::url_parts::UrlParts;
use serde::Serialize;
use std::fmt;

/// Only web pages can be fenced in or out: the agent cannot open anything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    fn parse(text: &str) -> Option<Scheme> {
        match text.to_ascii_lowercase().as_str() {
            "http" => Some(Scheme::Http),
            "https" => Some(Scheme::Https),
            _ => None,
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }
}

/// One origin. `port` is `None` for the scheme's default port, as browsers print it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Origin {
    pub scheme: Scheme,
    /// Lowercase ASCII; IPv6 literals keep their brackets.
    pub host: String,
    pub port: Option<u16>,
}

/// Why a text is not an origin; the message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    #[error("{0:?} is not an http(s) address: write it as https://host or http://host:port")]
    NotHttp(String),
    #[error("{0:?} has no host")]
    NoHost(String),
    #[error("wildcards are not supported ({0:?}): list each origin, e.g. https://www.example.com")]
    Wildcard(String),
    #[error("host {0:?} has characters a browser would rewrite; write the xn-- (punycode) form")]
    BadHost(String),
    #[error("port {0:?} is not a number from 1 to 65535")]
    BadPort(String),
}

impl Origin {
    /// The origin of an absolute `http(s)://` URL.
    pub fn of_url(url: &str) -> Result<Origin, OriginError> {
        let trimmed = url.trim();
        if trimmed.contains('*') {
            return Err(OriginError::Wildcard(trimmed.to_owned()));
        }
        let parts =
            UrlParts::parse(trimmed).ok_or_else(|| OriginError::NotHttp(trimmed.to_owned()))?;
        let scheme =
            Scheme::parse(parts.scheme).ok_or_else(|| OriginError::NotHttp(trimmed.to_owned()))?;
        Origin::from_parts(scheme, parts.host, parts.port, trimmed)
    }

    /// `host` or `host:port` without a scheme: the same host over http and https.
    pub fn of_bare_host(text: &str) -> Result<[Origin; 2], OriginError> {
        // Checked here so the message quotes the line as the person wrote it.
        if text.contains('*') {
            return Err(OriginError::Wildcard(text.trim().to_owned()));
        }
        let http = Origin::of_url(&format!("http://{text}"))?;
        let https = Origin {
            scheme: Scheme::Https,
            ..http.clone()
        };
        Ok([http, https])
    }

    fn from_parts(
        scheme: Scheme,
        host: &str,
        port: Option<&str>,
        whole: &str,
    ) -> Result<Origin, OriginError> {
        if host.is_empty() {
            return Err(OriginError::NoHost(whole.to_owned()));
        }
        let host = host.to_ascii_lowercase();
        let allowed = |c: char| c.is_ascii_alphanumeric() || "-._".contains(c);
        let ipv6 = host.starts_with('[') && host.ends_with(']');
        let ok = if ipv6 {
            host[1..host.len() - 1]
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        } else {
            host.chars().all(allowed)
        };
        if !ok {
            return Err(OriginError::BadHost(host));
        }
        let port = match port {
            None | Some("") => None,
            Some(p) => {
                let n: u16 = p
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| OriginError::BadPort(p.to_owned()))?;
                (n != scheme.default_port()).then_some(n)
            }
        };
        Ok(Origin { scheme, host, port })
    }

    /// Whether the host is an IP literal or `localhost`: no `www.` twin for those.
    fn is_ip_or_local(&self) -> bool {
        self.host.starts_with('[')
            || self.host.chars().all(|c| c.is_ascii_digit() || c == '.')
            || self.host == "localhost"
            || self.host.ends_with(".localhost")
    }

    /// The forms a site commonly redirects between on its first request: an http
    /// origin on the default port upgraded to https, and `www.` added or removed.
    pub fn twins(&self) -> Vec<Origin> {
        let mut out = Vec::new();
        let upgraded = (self.scheme == Scheme::Http && self.port.is_none()).then(|| Origin {
            scheme: Scheme::Https,
            ..self.clone()
        });
        for base in std::iter::once(self.clone()).chain(upgraded) {
            if let Some(www) = base.www_twin() {
                out.push(www);
            }
            if base != *self {
                out.push(base);
            }
        }
        out
    }

    fn www_twin(&self) -> Option<Origin> {
        if self.is_ip_or_local() {
            return None;
        }
        let host = match self.host.strip_prefix("www.") {
            Some(bare) if bare.contains('.') => bare.to_owned(),
            Some(_) => return None,
            // A single label (an intranet name) has no www form worth guessing.
            None if self.host.contains('.') => format!("www.{}", self.host),
            None => return None,
        };
        Some(Origin {
            host,
            ..self.clone()
        })
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme.name(), self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        Ok(())
    }
}
