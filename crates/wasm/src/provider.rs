//! Model call exports. Both are async and never reject: whatever happens, the promise
//! resolves to the outcome `{ok, reply | error: {kind, message, hint}, attempts}`
//! (docs/agent-run.md), so the agent loop has one shape to handle. Nothing here logs:
//! a log line could end up holding the key.

use super::fetch::{cancelled, is_aborted, send, sleep};
use hopbench::model::ModelRequest;
use hopbench::provider::{
    build_request, connection_check_request, hint, parse_reply, redact, CallError, CallLog,
    CallOptions, CallOutcome, ProviderConfig, RetryPolicy,
};
use js_sys::Function;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};
use web_sys::AbortSignal;

/// `model_call(config, request, options, signal)` → `Promise<CallOutcome>`.
/// `config` = `{provider, base_url, model, api_key}` (the settings' `model` object
/// works as is), `request` = a `ModelRequest`, `options` =
/// `{max_tries?, timeout_ms?, extension_origin?}`, `signal` = an AbortSignal or
/// undefined, `on_try` = a function called with the try's number (1, 2, ...) as each
/// try is sent, or undefined: a call may take minutes, and people want to see which
/// try it is on.
#[wasm_bindgen]
pub async fn model_call(
    config: JsValue,
    request: JsValue,
    options: JsValue,
    signal: Option<AbortSignal>,
    on_try: Option<Function>,
) -> JsValue {
    let outcome = match decode_call(&config, &request, &options) {
        Ok((config, request, options)) => {
            call(
                &config,
                &request,
                &options,
                signal.as_ref(),
                on_try.as_ref(),
            )
            .await
        }
        Err(outcome) => *outcome,
    };
    to_js(&outcome)
}

/// `test_connection(config, options, signal)` → `Promise<CallOutcome>`: one small
/// request with the same retries and timeout as a real call.
#[wasm_bindgen]
pub async fn test_connection(
    config: JsValue,
    options: JsValue,
    signal: Option<AbortSignal>,
) -> JsValue {
    let outcome = match decode_config(&config).and_then(|c| Ok((c, decode_options(&options)?))) {
        Ok((config, options)) => {
            // A model gets a one-line prompt, a person's own agent the protocol's hello.
            let request = connection_check_request(config.provider);
            call(&config, &request, &options, signal.as_ref(), None).await
        }
        Err(outcome) => *outcome,
    };
    to_js(&outcome)
}

async fn call(
    config: &ProviderConfig,
    request: &ModelRequest,
    options: &CallOptions,
    signal: Option<&AbortSignal>,
    on_try: Option<&Function>,
) -> CallOutcome {
    let origin = options.extension_origin.clone().unwrap_or_else(own_origin);
    let http = match build_request(config, request) {
        Ok(http) => http,
        Err(error) => {
            let error = error.redacted(&config.api_key);
            let hint = hint(&error, config, &origin);
            return CallOutcome::failed_before_sending(error, hint);
        }
    };
    let mut log = CallLog::new(RetryPolicy::with_max_tries(options.max_tries));
    let mut tries = 0u32;
    loop {
        tries += 1;
        if let Some(on_try) = on_try {
            // Only a report to the caller: its failure must not fail the call.
            let _ = on_try.call1(&JsValue::NULL, &JsValue::from(tries));
        }
        let result = if is_aborted(signal) {
            Err(cancelled())
        } else {
            send(&http, options.timeout_ms, signal)
                .await
                .and_then(|reply| parse_reply(config, &reply))
        };
        let error = match result {
            Ok(reply) => return log.succeeded(reply),
            Err(error) => error.redacted(&config.api_key),
        };
        match log.failed(&error) {
            Some(delay_ms) => sleep(delay_ms, signal).await,
            None => {
                let hint = hint(&error, config, &origin);
                return log.gave_up(error, hint);
            }
        }
    }
}

// Boxed: an outcome is large, and the error path is the rare one.
type Decoded<T> = Result<T, Box<CallOutcome>>;

fn decode_call(
    config: &JsValue,
    request: &JsValue,
    options: &JsValue,
) -> Decoded<(ProviderConfig, ModelRequest, CallOptions)> {
    let config = decode_config(config)?;
    let request: ModelRequest = decode(request, "request")?;
    Ok((config, request, decode_options(options)?))
}

fn decode_config(config: &JsValue) -> Decoded<ProviderConfig> {
    decode(config, "model settings").map_err(|outcome| {
        // A type error could quote a field's value; make sure the key is not one.
        let key = js_sys::Reflect::get(config, &JsValue::from_str("api_key"))
            .ok()
            .and_then(|k| k.as_string())
            .unwrap_or_default();
        Box::new(redact_outcome(*outcome, &key))
    })
}

fn decode_options(options: &JsValue) -> Decoded<CallOptions> {
    if options.is_undefined() || options.is_null() {
        return Ok(CallOptions::default());
    }
    decode::<CallOptions>(options, "call options").map(CallOptions::normalized)
}

fn decode<T: DeserializeOwned>(value: &JsValue, what: &str) -> Decoded<T> {
    super::js::from_js(value, what).map_err(|e| {
        let error = CallError::config(format!("invalid {what}: {e}"));
        Box::new(CallOutcome::failed_before_sending(
            error,
            "This is a bug in the caller of model_call; the message says which field is wrong."
                .to_string(),
        ))
    })
}

fn redact_outcome(mut outcome: CallOutcome, key: &str) -> CallOutcome {
    if let Some(error) = outcome.error.as_mut() {
        error.message = redact(&error.message, key);
    }
    for attempt in &mut outcome.attempts {
        attempt.message = redact(&attempt.message, key);
    }
    outcome
}

/// `chrome-extension://<id>` read from the worker's own location, for origin hints.
fn own_origin() -> String {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("location"))
        .and_then(|location| js_sys::Reflect::get(&location, &JsValue::from_str("origin")))
        .ok()
        .and_then(|origin| origin.as_string())
        .unwrap_or_default()
}

/// Plain JS objects (not Maps), `null` for absent values as documented.
fn to_js(outcome: &impl Serialize) -> JsValue {
    // Our own plain structs always serialise; should that ever fail, the caller still
    // gets a value it can show rather than a rejected promise.
    super::js::to_js(outcome).unwrap_or_else(JsValue::from)
}
