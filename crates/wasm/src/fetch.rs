//! One HTTP try and the wait between tries, both ended early by the caller's
//! AbortSignal (Stop). gloo-net binds the global `fetch`, so this runs in the service
//! worker (reqwasm needs `window` and its future never settles there).

use gloo_net::http::{Method, RequestBuilder};
use hopbench::provider::{CallError, ErrorKind, HttpReply, HttpRequest};
use js_sys::{Array, Promise};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, AddEventListenerOptions};

/// Sends `request`, aborting it after `timeout_ms` or when `caller` aborts. The
/// timeout covers reading the body too: the same signal is attached to both.
pub async fn send(
    request: &HttpRequest,
    timeout_ms: u64,
    caller: Option<&AbortSignal>,
) -> Result<HttpReply, CallError> {
    let timer = AbortSignal::timeout_with_f64(timeout_ms as f64);
    let signal = either(caller, &timer);
    let failed = |error: gloo_net::Error| failure(error, request, timeout_ms, caller, &timer);
    let mut builder = RequestBuilder::new(&request.url)
        .method(Method::POST)
        .abort_signal(Some(&signal));
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    let built = builder.body(request.body.clone()).map_err(failed)?;
    let response = built.send().await.map_err(failed)?;
    let status = response.status();
    let retry_after = response.headers().get("retry-after");
    let body = response.text().await.map_err(failed)?;
    Ok(HttpReply {
        status,
        retry_after,
        body,
        now_ms: js_sys::Date::now() as u64,
    })
}

/// Waits `ms`, or less if `caller` aborts first (Stop must not wait out a backoff).
pub async fn sleep(ms: u64, caller: Option<&AbortSignal>) {
    let timer = AbortSignal::timeout_with_f64(ms as f64);
    let wake = either(caller, &timer);
    let promise = Promise::new(&mut |resolve, _reject| {
        if wake.aborted() {
            // Resolving cannot fail; the result is the promise's settlement.
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        }
        let once = AddEventListenerOptions::new();
        once.set_once(true);
        // The listener is the promise's own resolve function: no Rust closure is
        // kept alive, so nothing leaks whichever of the two ends the wait.
        if wake
            .add_event_listener_with_callback_and_add_event_listener_options(
                "abort", &resolve, &once,
            )
            .is_err()
        {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    // `resolve` is the only way this promise settles; there is no error to handle.
    let _ = JsFuture::from(promise).await;
}

pub fn is_aborted(caller: Option<&AbortSignal>) -> bool {
    caller.is_some_and(AbortSignal::aborted)
}

pub fn cancelled() -> CallError {
    CallError::new(ErrorKind::Cancelled, "the call was stopped")
}

/// A signal that aborts when the timer or the caller's signal does
/// (`AbortSignal.any`, Chrome 116+; the manifest asks for 120).
fn either(caller: Option<&AbortSignal>, timer: &AbortSignal) -> AbortSignal {
    match caller {
        Some(caller) => AbortSignal::any(&Array::of2(caller, timer)),
        None => timer.clone(),
    }
}

/// Tells a Stop from a timeout from a network failure, by which signal fired.
fn failure(
    error: gloo_net::Error,
    request: &HttpRequest,
    timeout_ms: u64,
    caller: Option<&AbortSignal>,
    timer: &AbortSignal,
) -> CallError {
    if is_aborted(caller) {
        return cancelled();
    }
    if timer.aborted() {
        let seconds = timeout_ms as f64 / 1000.0;
        return CallError::new(
            ErrorKind::Timeout,
            format!("no reply from {} within {seconds} s", request.url),
        );
    }
    CallError::new(
        ErrorKind::Network,
        format!("could not reach {}: {error}", request.url),
    )
}
