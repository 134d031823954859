//! The request and response values the sites see. Sites are pure functions from `Req`
//! to `Resp`, so they are tested without sockets and the server stays a thin loop.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// A parsed GET request: the decoded path segments and query parameters in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Req {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl Req {
    /// Splits a request target (`/a/b?x=1&y=two+words`) into a decoded path and pairs.
    pub fn parse(target: &str) -> Req {
        // A fragment never reaches a server, but a hand-typed URL in a test may carry one.
        let target = target.split('#').next().unwrap_or_default();
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        // Form decoding: `+` is a space, bad escapes stay literal, bad UTF-8 is replaced.
        let query = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        Req {
            path: percent_decode_str(path).decode_utf8_lossy().into_owned(),
            query,
        }
    }

    /// The path's non-empty segments: `/hotel/tokyo-bay/` → `["hotel", "tokyo-bay"]`.
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('/').filter(|s| !s.is_empty()).collect()
    }

    /// The first value of a parameter, trimmed; `None` when absent or blank, because a
    /// GET form submits every field and an empty field means "no filter".
    pub fn get(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// A parameter as a number; unparsable values count as absent.
    pub fn num(&self, name: &str) -> Option<u32> {
        self.get(name).and_then(|v| v.parse().ok())
    }

    /// The page number (`page`, 1-based, default 1).
    pub fn page(&self) -> usize {
        self.num("page").map_or(1, |p| p.max(1) as usize)
    }

    /// This request's path with one parameter set (or removed when `value` is empty),
    /// keeping every other parameter and their order, and dropping `page` unless it is
    /// the one being set: a new filter or sort starts again at page 1.
    pub fn with(&self, name: &str, value: &str) -> String {
        self.with_all(&[(name, value)])
    }

    /// `with` for several parameters at once (a price range sets min and max).
    pub fn with_all(&self, changes: &[(&str, &str)]) -> String {
        let mut pairs: Vec<(String, String)> = self
            .query
            .iter()
            .filter(|(k, v)| {
                k != "page" && !v.trim().is_empty() && !changes.iter().any(|(n, _)| n == k)
            })
            .cloned()
            .collect();
        for (name, value) in changes {
            if !value.is_empty() {
                pairs.push((name.to_string(), value.to_string()));
            }
        }
        let path = encode_path(&self.path);
        if pairs.is_empty() {
            return path;
        }
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&pairs)
            .finish();
        format!("{path}?{query}")
    }
}

/// What a site answers: status, content type, body and an optional redirect target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resp {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub location: Option<String>,
}

impl Resp {
    pub fn html(body: String) -> Resp {
        Resp {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: body.into_bytes(),
            location: None,
        }
    }

    pub fn json(body: String) -> Resp {
        Resp {
            status: 200,
            content_type: "application/json",
            body: body.into_bytes(),
            location: None,
        }
    }

    pub fn png(bytes: Vec<u8>) -> Resp {
        Resp {
            status: 200,
            content_type: "image/png",
            body: bytes,
            location: None,
        }
    }

    pub fn with_status(mut self, status: u16) -> Resp {
        self.status = status;
        self
    }

    /// A 302 to a path on the same site, as search forms on real sites redirect to
    /// their canonical listing URL (`/events/search?city=tokyo` → `/events/tokyo`).
    pub fn redirect(location: String) -> Resp {
        Resp {
            status: 302,
            content_type: "text/plain; charset=utf-8",
            body: format!("See {location}\n").into_bytes(),
            location: Some(location),
        }
    }
}

/// Encodes a query component as a browser's GET form does (space as `+`), so our
/// links look like submitted forms.
pub fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Everything but RFC 3986's unreserved characters is escaped in a path segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Encodes a path, keeping its slashes.
pub fn encode_path(path: &str) -> String {
    path.split('/')
        .map(|seg| utf8_percent_encode(seg, SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_path_and_query() {
        let r = Req::parse("/flights/search?from=TYO&to=San+Francisco&date=&x=%41");
        assert_eq!(r.segments(), vec!["flights", "search"]);
        assert_eq!(r.get("from"), Some("TYO"));
        assert_eq!(r.get("to"), Some("San Francisco"));
        assert_eq!(r.get("date"), None, "blank means absent");
        assert_eq!(r.get("x"), Some("A"));
        assert_eq!(Req::parse("/a%20b").path, "/a b");
    }

    #[test]
    fn with_keeps_filters_and_resets_page() {
        let r = Req::parse("/s?q=red+car&page=3&sort=price");
        assert_eq!(r.with("type", "suv"), "/s?q=red+car&sort=price&type=suv");
        assert_eq!(r.with("page", "4"), "/s?q=red+car&sort=price&page=4");
        assert_eq!(r.with("sort", ""), "/s?q=red+car");
    }

    #[test]
    fn bad_escapes_stay_literal() {
        let r = Req::parse("/p?a=100%&b=%zz&c=%C3%A9+x");
        assert_eq!((r.get("a"), r.get("b")), (Some("100%"), Some("%zz")));
        assert_eq!(r.get("c"), Some("é x"));
    }

    #[test]
    fn links_round_trip_through_parse() {
        let r = Req::parse("/a b/é");
        assert_eq!(
            r.with("q", "red & blue+1"),
            "/a%20b/%C3%A9?q=red+%26+blue%2B1"
        );
        let back = Req::parse(&r.with("q", "red & blue+1"));
        assert_eq!(
            (back.path.as_str(), back.get("q")),
            ("/a b/é", Some("red & blue+1"))
        );
    }
}
