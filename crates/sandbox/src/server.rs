//! Serving: one listener and accept thread per site, one short-lived thread per
//! connection. Handlers are pure, so this file only turns sockets into `Req`s and
//! `Resp`s into bytes (`wire.rs`).
//!
//! Every connection carries exactly one request and is closed after the reply
//! (`Connection: close`). The server used before (tiny_http 0.12) kept browser
//! connections open on a pool of threads and could leave a new connection queued behind
//! idle keep-alive ones until the browser dropped one, minutes later: Chromium then
//! waited ~5 minutes for a picture that curl got at once. Its accept thread also ended
//! on the first accept error, taking the site down for new connections. A connection per
//! request costs one loopback handshake and cannot wait for anything else.

use super::favicon::{favicon_png, FAVICON_PATH};
use super::http::Resp;
use super::identity::IDENTITY_PATH;
use super::site::{Ctx, Site, SiteDef, SiteUrls};
use super::wire::{read_request, write_response, Received};
use super::SandboxError;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A client that sends no complete request within this long is dropped, so a stray
/// connection cannot hold a thread for ever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

pub(super) struct Running {
    pub def: &'static SiteDef,
    pub url: String,
    host: String,
    port: u16,
    stopping: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Binds `host:port` for `def` and starts its accept loop.
    /// `identity` is the JSON every site answers at `IDENTITY_PATH`.
    pub fn start(
        def: &'static SiteDef,
        site: Box<dyn Site>,
        host: &str,
        port: u16,
        urls: Arc<SiteUrls>,
        identity: Arc<str>,
    ) -> Result<Running, SandboxError> {
        let listener = TcpListener::bind((host, port)).map_err(|source| SandboxError::Bind {
            site: def.name,
            host: host.to_string(),
            port,
            source,
        })?;
        let site: Arc<dyn Site> = Arc::from(site);
        let stopping = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stopping);
        let thread = std::thread::Builder::new()
            .name(format!("sandbox-{}", def.key))
            .spawn(move || accept_loop(def, &site, &listener, &urls, &identity, &flag))
            .map_err(|e| {
                SandboxError::Server(format!("{}: cannot start a thread: {e}", def.name))
            })?;
        Ok(Running {
            def,
            url: format!("http://{host}:{port}"),
            host: host.to_string(),
            port,
            stopping,
            thread: Some(thread),
        })
    }

    /// Stops accepting, waits for the accept thread (which owns the listener) and then
    /// until the port is free again, so a restart on the same ports cannot race the old
    /// one. Connections in flight finish on their own threads.
    pub fn stop(&mut self) {
        let Some(thread) = self.thread.take() else {
            return;
        };
        self.stopping.store(true, Ordering::SeqCst);
        // `accept` blocks: a connection of our own wakes it to see the flag.
        let _ = TcpStream::connect((self.host.as_str(), self.port));
        let _ = thread.join();
        for _ in 0..100 {
            if TcpListener::bind((self.host.as_str(), self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(
    def: &'static SiteDef,
    site: &Arc<dyn Site>,
    listener: &TcpListener,
    urls: &Arc<SiteUrls>,
    identity: &Arc<str>,
    stopping: &AtomicBool,
) {
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            return;
        }
        let stream = match stream {
            Ok(stream) => stream,
            // A failed accept (a client that reset first, out of descriptors) must not
            // end the site: the next connection is accepted as usual.
            Err(e) => {
                eprintln!("hopbench sandbox: {}: {e}", def.name);
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let site = Arc::clone(site);
        let urls = Arc::clone(urls);
        let identity = Arc::clone(identity);
        let spawned = std::thread::Builder::new()
            .name(format!("sandbox-{}-conn", def.key))
            .spawn(move || serve_one(def, site.as_ref(), &urls, &identity, stream));
        if let Err(e) = spawned {
            eprintln!("hopbench sandbox: {}: cannot start a thread: {e}", def.name);
        }
    }
}

/// Reads one request, answers it and closes the connection. A client that hung up is
/// not the server's problem, so write errors are ignored.
fn serve_one(
    def: &'static SiteDef,
    site: &dyn Site,
    urls: &Arc<SiteUrls>,
    identity: &str,
    mut stream: TcpStream,
) {
    let _ = stream.set_read_timeout(Some(REQUEST_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let ctx = Ctx { def, urls };
    let (resp, head_only) = match read_request(&mut stream) {
        Received::Get { target, head_only } if target == IDENTITY_PATH => {
            (Resp::json(identity.to_string()), head_only)
        }
        Received::Get { target, head_only } if target == FAVICON_PATH => {
            (Resp::png(favicon_png(def.name, def.accent)), head_only)
        }
        Received::Get { target, head_only } => (
            site.handle(&ctx, &super::http::Req::parse(&target)),
            head_only,
        ),
        Received::Answer(resp) => (resp, false),
        Received::Nothing => return,
    };
    let _ = write_response(&mut stream, &resp, head_only);
    // Half-close, then let the client close first: closing with unread request bytes
    // (a body we ignored) would reset the connection and could lose the reply.
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = std::io::copy(&mut stream, &mut std::io::sink());
}
