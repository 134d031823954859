//! The little URL handling the providers need: the host of a base URL, whether it is
//! this machine or a private network (servers there are local model servers, whose
//! 403 means "origin not allowed", not "bad key"), and joining paths.

/// Ollama's default port: a local server there is almost surely Ollama.
pub const OLLAMA_PORT: u16 = 11434;
/// LM Studio's default server port.
pub const LM_STUDIO_PORT: u16 = 1234;

/// The host (lower-case, brackets kept for IPv6) of an `http(s)://` URL, or `None`.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // Credentials before '@' are not part of the host.
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = if host_port.starts_with('[') {
        // [::1]:8080 → [::1]
        host_port.split_inclusive(']').next().unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// The port written in the URL, if any.
pub fn port_of(url: &str) -> Option<u16> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let after_host = match host_port.rfind(']') {
        Some(end) => &host_port[end + 1..],
        None => host_port,
    };
    after_host.rsplit_once(':')?.1.parse().ok()
}

/// True for loopback, private IPv4 ranges, `.local` and `.localhost` names.
pub fn is_local(url: &str) -> bool {
    let Some(host) = host_of(url) else {
        return false;
    };
    if host == "localhost" || host.ends_with(".localhost") || host.ends_with(".local") {
        return true;
    }
    if host == "[::1]" || host == "0.0.0.0" {
        return true;
    }
    // Only a dotted quad of numbers is an IPv4 address: "127.0.0.1.example.com" is not.
    let Ok(octets) = host
        .split('.')
        .map(str::parse::<u8>)
        .collect::<Result<Vec<u8>, _>>()
    else {
        return false;
    };
    match octets[..] {
        [127, _, _, _] | [10, _, _, _] | [192, 168, _, _] => true,
        [172, second, _, _] => (16..=31).contains(&second),
        _ => false,
    }
}

/// The endpoint for `path` under `base`. A base that is only scheme and host (people
/// often paste `http://localhost:11434`) gets the API's usual version prefix first.
pub fn endpoint(base: &str, version_prefix: &str, path: &str) -> String {
    if has_path(base) {
        join(base, path)
    } else {
        join(&join(base, version_prefix), path)
    }
}

fn has_path(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    rest.find('/')
        .is_some_and(|slash| !rest[slash..].trim_matches('/').is_empty())
}

/// `base` + `/` + `path`, unless `base` already ends with that path (people paste
/// the full endpoint as often as the base).
pub fn join(base: &str, path: &str) -> String {
    let path = path.trim_start_matches('/');
    if base.ends_with(&format!("/{path}")) {
        base.to_string()
    } else {
        format!("{base}/{path}")
    }
}

/// Percent-encodes everything but unreserved characters, for a model name that goes
/// into a URL path (Gemini): a stray `?` or space must not change the URL. Hand-written
/// for the wasm's size, like `condition::url_parts::percent_decode`.
pub fn encode_path_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
