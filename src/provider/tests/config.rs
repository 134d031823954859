//! URL handling and call options.

use super::super::url::{encode_path_segment, host_of, is_local, port_of};
use super::CallOptions;

#[test]
fn call_options_default_and_are_bounded() {
    let options: CallOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(options, CallOptions::default());
    assert_eq!((options.max_tries, options.timeout_ms), (4, 120_000));
    let wild: CallOptions = serde_json::from_str(r#"{"max_tries": 0, "timeout_ms": 5}"#).unwrap();
    let wild = wild.normalized();
    assert_eq!((wild.max_tries, wild.timeout_ms), (1, 1_000));
}

#[test]
fn host_and_port_are_read_from_base_urls() {
    assert_eq!(
        host_of("https://API.openai.com/v1").as_deref(),
        Some("api.openai.com")
    );
    assert_eq!(
        host_of("http://user:pw@127.0.0.1:8/x").as_deref(),
        Some("127.0.0.1")
    );
    assert_eq!(host_of("http://[::1]:8080/v1").as_deref(), Some("[::1]"));
    assert_eq!(host_of("localhost:11434"), None);
    assert_eq!(host_of("http:///v1"), None);
    assert_eq!(port_of("http://localhost:11434/v1"), Some(11434));
    assert_eq!(port_of("http://[::1]:8080/v1"), Some(8080));
    assert_eq!(port_of("https://api.openai.com/v1"), None);
}

#[test]
fn local_means_this_machine_or_a_private_network() {
    for url in [
        "http://localhost:1",
        "http://127.0.0.1:1",
        "http://10.1.2.3",
        "http://172.20.0.5:8000",
        "http://192.168.0.10",
        "http://gpu-box.local:8000",
        "http://[::1]:1",
    ] {
        assert!(is_local(url), "{url}");
    }
    for url in [
        "https://api.openai.com/v1",
        "http://172.32.0.1",
        "http://8.8.8.8",
        "http://127.0.0.1.example.com",
    ] {
        assert!(!is_local(url), "{url}");
    }
}

#[test]
fn path_segments_keep_unreserved_characters_only() {
    assert_eq!(
        encode_path_segment("gemini-2.5-flash_x~"),
        "gemini-2.5-flash_x~"
    );
    assert_eq!(encode_path_segment("a/b c"), "a%2Fb%20c");
}
