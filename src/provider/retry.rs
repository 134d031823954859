//! When to try a failed call again, and after how long.
//!
//! Transient failures (429, 5xx, timeouts, network errors) are retried with
//! exponential backoff; a server's Retry-After replaces the backoff. A failure whose
//! words name a cause another try cannot change (images a text-only model refuses, a
//! prompt longer than the context) is final whatever its status, llama-server's 500
//! included ([`super::ErrorKind::is_transient`]). No jitter: one
//! agent makes one call at a time, so there is no herd of clients to spread out, and
//! fixed delays keep runs and tests reproducible.

use super::error::CallError;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Tries in all, the first included; 1 means never retry.
    pub max_tries: u32,
    /// Wait after the first failure; doubled after each further one.
    pub base_delay_ms: u64,
    /// Backoff never waits longer than this.
    pub max_delay_ms: u64,
    /// A Retry-After longer than this is not waited for: the call fails now and says
    /// how long the server wants (an hourly quota is better reported than slept on).
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_tries: 4,
            base_delay_ms: 1_000,
            max_delay_ms: 30_000,
            max_retry_after_ms: 120_000,
        }
    }
}

impl RetryPolicy {
    pub fn with_max_tries(max_tries: u32) -> Self {
        RetryPolicy {
            max_tries: max_tries.max(1),
            ..RetryPolicy::default()
        }
    }
}

/// How long to wait before the next try after try number `attempt` (1 = the first)
/// failed with `error`; `None` when this failure is final.
pub fn retry_delay(policy: &RetryPolicy, attempt: u32, error: &CallError) -> Option<u64> {
    if !error.kind.is_transient() || attempt >= policy.max_tries {
        return None;
    }
    if let Some(asked) = error.retry_after_ms {
        return (asked <= policy.max_retry_after_ms).then_some(asked);
    }
    let doublings = attempt.saturating_sub(1).min(32);
    let backoff = policy.base_delay_ms.saturating_mul(1u64 << doublings);
    Some(backoff.min(policy.max_delay_ms))
}
