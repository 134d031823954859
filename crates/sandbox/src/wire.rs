//! HTTP/1.1 on the wire, as little as the sandbox needs: read one request's head (the
//! sandbox only serves GET and HEAD, so no body is ever read), write one response that
//! closes the connection.

use super::http::Resp;
use std::io::{self, Read, Write};

/// A request head larger than this is refused (the sandbox's longest URLs are ~300 bytes).
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What came in on a connection.
pub(super) enum Received {
    /// A GET (or HEAD: the same answer without its body) of `target` (path and query).
    Get { target: String, head_only: bool },
    /// A request answered without a handler: another method, or a malformed head.
    Answer(Resp),
    /// The client sent nothing before closing or timing out (or the server woke its own
    /// accept loop): nothing to answer.
    Nothing,
}

pub(super) fn read_request(stream: &mut impl Read) -> Received {
    let mut head = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) if head.is_empty() => return Received::Nothing,
            Ok(0) | Err(_) => return Received::Answer(text(400, "Incomplete request.\n")),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
        if head.len() > MAX_HEAD_BYTES {
            return Received::Answer(text(431, "The request head is too large.\n"));
        }
    }
    let head = String::from_utf8_lossy(&head);
    let line = head.lines().next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Received::Answer(text(400, "Malformed request line.\n"));
    };
    if !version.starts_with("HTTP/1.") || !target.starts_with('/') {
        return Received::Answer(text(400, "Malformed request line.\n"));
    }
    match method {
        "GET" => Received::Get {
            target: target.to_string(),
            head_only: false,
        },
        "HEAD" => Received::Get {
            target: target.to_string(),
            head_only: true,
        },
        _ => Received::Answer(text(
            405,
            "Only GET is supported: every form in the sandbox uses GET.\n",
        )),
    }
}

fn text(status: u16, body: &str) -> Resp {
    Resp {
        status,
        content_type: "text/plain; charset=utf-8",
        body: body.as_bytes().to_vec(),
        location: None,
    }
}

pub(super) fn write_response(out: &mut impl Write, resp: &Resp, head_only: bool) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len()
    );
    if resp.status == 405 {
        head.push_str("Allow: GET, HEAD\r\n");
    }
    if let Some(location) = &resp.location {
        head.push_str(&format!("Location: {location}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&resp.body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        302 => "Found",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(raw: &str) -> Received {
        read_request(&mut raw.as_bytes())
    }

    #[test]
    fn get_and_head_give_their_target() {
        match read("GET /search?q=a+b HTTP/1.1\r\nHost: x\r\n\r\n") {
            Received::Get { target, head_only } => {
                assert_eq!((target.as_str(), head_only), ("/search?q=a+b", false))
            }
            _ => panic!("not a GET"),
        }
        assert!(matches!(
            read("HEAD / HTTP/1.0\r\n\r\n"),
            Received::Get {
                head_only: true,
                ..
            }
        ));
    }

    #[test]
    fn other_methods_bad_heads_and_silence_are_told_apart() {
        assert!(
            matches!(read("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"), Received::Answer(r) if r.status == 405)
        );
        assert!(matches!(read("GET /\r\n\r\n"), Received::Answer(r) if r.status == 400));
        assert!(
            matches!(read("GET / HTTP/1.1\r\nHost: x"), Received::Answer(r) if r.status == 400)
        );
        assert!(matches!(read(""), Received::Nothing));
        let huge = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD_BYTES + 10));
        assert!(matches!(read(&huge), Received::Answer(r) if r.status == 431));
    }

    #[test]
    fn the_response_closes_the_connection_and_head_has_no_body() {
        let resp = Resp::redirect("/events/tokyo".into());
        let mut out = Vec::new();
        write_response(&mut out, &resp, false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("HTTP/1.1 302 Found\r\n"), "{text}");
        assert!(
            text.contains("Connection: close\r\n") && text.contains("Location: /events/tokyo\r\n")
        );
        assert!(text.contains(&format!("Content-Length: {}\r\n", resp.body.len())));
        assert!(text.ends_with("See /events/tokyo\n"));
        let mut out = Vec::new();
        write_response(&mut out, &resp, true).unwrap();
        assert!(String::from_utf8(out).unwrap().ends_with("\r\n\r\n"));
    }
}
