//! The request and response values the sites see. Sites are pure functions from `Req`
//! to `Resp`, so they are tested without sockets and the server stays a thin loop.

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
        let query = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(k), decode(v))
            })
            .collect();
        Req {
            path: decode_path(path),
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
        let mut out = encode_path(&self.path);
        let mut sep = '?';
        for (k, v) in &pairs {
            out.push(sep);
            out.push_str(&encode(k));
            out.push('=');
            out.push_str(&encode(v));
            sep = '&';
        }
        out
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

/// Percent-decodes a query component, `+` as space; invalid escapes stay literal.
pub fn decode(s: &str) -> String {
    decode_bytes(s, true)
}

fn decode_path(s: &str) -> String {
    decode_bytes(s, false)
}

fn decode_bytes(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' if plus_is_space => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Percent-encodes a query component: unreserved characters stay, space becomes `+`
/// (what browsers send from a GET form, so our links look like submitted forms).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Encodes a path, keeping its slashes.
pub fn encode_path(path: &str) -> String {
    path.split('/')
        .map(|seg| encode(seg).replace('+', "%20"))
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
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
    }
}
