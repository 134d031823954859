//! A small URL splitter for condition matching.
//!
//! We only need scheme, host, path, query, fragment and query parameters, and we must
//! accept whatever a browser reports (including Kiwix-style `#...` article fragments),
//! so a forgiving splitter is used instead of a full WHATWG parser (which would also
//! add hundreds of KB of IDNA tables to the wasm).

/// The parts of a URL that conditions can target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlParts<'a> {
    pub scheme: &'a str,
    /// Host without port or user info, as written (callers lowercase when comparing).
    pub host: &'a str,
    pub port: Option<&'a str>,
    /// Path including the leading `/`; `/` when the URL has none.
    pub path: &'a str,
    /// Query string without the leading `?`.
    pub query: &'a str,
    /// Fragment without the leading `#`.
    pub fragment: &'a str,
}

impl<'a> UrlParts<'a> {
    /// Splits `url`. Returns `None` when it has no `scheme://` prefix.
    pub fn parse(url: &'a str) -> Option<Self> {
        let url = url.trim();
        let (scheme, rest) = url.split_once("://")?;
        if scheme.is_empty()
            || !scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            return None;
        }
        let (before_fragment, fragment) = rest.split_once('#').unwrap_or((rest, ""));
        let (before_query, query) = before_fragment
            .split_once('?')
            .unwrap_or((before_fragment, ""));
        let (authority, path) = match before_query.find('/') {
            Some(i) => (&before_query[..i], &before_query[i..]),
            None => (before_query, "/"),
        };
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = split_port(host_port);
        Some(UrlParts {
            scheme,
            host,
            port,
            path,
            query,
            fragment,
        })
    }

    /// Decoded values of every query parameter named `name`.
    pub fn param_values(&self, name: &str) -> Vec<String> {
        self.query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .filter_map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (percent_decode(k) == name).then(|| percent_decode(v))
            })
            .collect()
    }
}

fn split_port(host_port: &str) -> (&str, Option<&str>) {
    // IPv6 literals keep their colons inside brackets.
    if let Some(end) = host_port.find(']') {
        let (host, rest) = host_port.split_at(end + 1);
        return (host, rest.strip_prefix(':'));
    }
    match host_port.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => (h, Some(p)),
        _ => (host_port, None),
    }
}

/// Percent-decodes `s`, also turning `+` into a space (form encoding), so that a token
/// such as `san francisco` matches `?city=San+Francisco` and `San%20Francisco` alike.
/// Invalid escapes are kept as written; invalid UTF-8 is replaced, never an error.
/// Hand-written on purpose: with the `percent-encoding` crate (and `form_urlencoded` for
/// `param_values`) the wasm grew by 2-3 KiB for the same behaviour.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 3;
                }
                _ => {
                    out.push(b'%');
                    i += 1;
                }
            },
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_full_url() {
        let p = UrlParts::parse(
            "https://user@Sg.Trip.com:8443/hotels/list?city=228&checkin=2024-05-01#top",
        )
        .unwrap();
        assert_eq!(p.scheme, "https");
        assert_eq!(p.host, "Sg.Trip.com");
        assert_eq!(p.port, Some("8443"));
        assert_eq!(p.path, "/hotels/list");
        assert_eq!(p.query, "city=228&checkin=2024-05-01");
        assert_eq!(p.fragment, "top");
        assert_eq!(p.param_values("city"), vec!["228"]);
        assert!(p.param_values("missing").is_empty());
    }

    #[test]
    fn kiwix_fragment_and_bare_host() {
        let p = UrlParts::parse(
            "https://library.kiwix.org/viewer#wikipedia_en_all_maxi_2024-01/A/Tokyo_Tower",
        )
        .unwrap();
        assert_eq!(p.path, "/viewer");
        assert_eq!(p.fragment, "wikipedia_en_all_maxi_2024-01/A/Tokyo_Tower");
        let bare = UrlParts::parse("http://localhost:7770").unwrap();
        assert_eq!(
            (bare.host, bare.port, bare.path),
            ("localhost", Some("7770"), "/")
        );
        assert!(UrlParts::parse("not a url").is_none());
    }

    #[test]
    fn decodes_percent_and_plus() {
        assert_eq!(percent_decode("San+Francisco"), "San Francisco");
        assert_eq!(percent_decode("San%20Francisco"), "San Francisco");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("1%2B1+is+2"), "1+1 is 2");
        let p = UrlParts::parse("http://x/s?q=a%2Bb+c&q=&empty&q=%zz").unwrap();
        assert_eq!(p.param_values("q"), vec!["a+b c", "", "%zz"]);
        assert_eq!(p.param_values("empty"), vec![""]);
    }
}
