//! The HTTP exchange as data: what the glue sends and what it got back.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A POST of a JSON body.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequest {
    pub url: String,
    /// Lower-case names. Some values are secrets (`authorization`, `x-api-key`,
    /// `x-goog-api-key`), which is why `Debug` does not print values.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HttpRequest")
            .field("url", &self.url)
            .field("headers", &names)
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

impl HttpRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpReply {
    pub status: u16,
    /// The `Retry-After` header as sent: seconds or an HTTP date.
    #[serde(default)]
    pub retry_after: Option<String>,
    pub body: String,
    /// When the reply arrived (Unix ms), to turn an HTTP-date Retry-After into a wait.
    #[serde(default)]
    pub now_ms: u64,
}
