//! Serving: one tiny_http listener and one thread per site. Handlers are pure, so this
//! file only turns sockets into `Req`s and `Resp`s into bytes.

use super::http::{Req, Resp};
use super::site::{Ctx, Site, SiteDef, SiteUrls};
use super::SandboxError;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use tiny_http::{Header, Method, Response, Server};

pub(super) struct Running {
    pub def: &'static SiteDef,
    pub url: String,
    host: String,
    port: u16,
    server: Option<Arc<Server>>,
    stopping: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Binds `host:port` for `def` and starts its request loop.
    pub fn start(
        def: &'static SiteDef,
        site: Box<dyn Site>,
        host: &str,
        port: u16,
        urls: Arc<SiteUrls>,
    ) -> Result<Running, SandboxError> {
        // Bind with std first: its error tells "address in use" apart from the rest.
        let listener = TcpListener::bind((host, port)).map_err(|source| SandboxError::Bind {
            site: def.name,
            host: host.to_string(),
            port,
            source,
        })?;
        let server = Server::from_listener(listener, None)
            .map_err(|e| SandboxError::Server(format!("{}: {e}", def.name)))?;
        let server = Arc::new(server);
        let worker = Arc::clone(&server);
        let stopping = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stopping);
        let thread = std::thread::Builder::new()
            .name(format!("sandbox-{}", def.key))
            .spawn(move || serve(def, site.as_ref(), &worker, &urls, &flag))
            .map_err(|e| {
                SandboxError::Server(format!("{}: cannot start a thread: {e}", def.name))
            })?;
        Ok(Running {
            def,
            url: format!("http://{host}:{port}"),
            host: host.to_string(),
            port,
            server: Some(server),
            stopping,
            thread: Some(thread),
        })
    }

    /// Wakes the request loop, waits for it, closes the listener and waits until the
    /// port is free again, so a restart on the same ports cannot race the old one.
    pub fn stop(&mut self) {
        let Some(server) = self.server.take() else {
            return;
        };
        self.stopping.store(true, Ordering::SeqCst);
        server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // Dropping the last handle wakes tiny_http's accept thread, which then closes
        // the socket; it does not wait for that, so we poll (bounded) until bind works.
        drop(server);
        for _ in 0..100 {
            if TcpListener::bind((self.host.as_str(), self.port)).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Answers requests until `stop` sets `stopping` and unblocks `recv` (requests queued
/// before that are still answered).
fn serve(
    def: &'static SiteDef,
    site: &dyn Site,
    server: &Server,
    urls: &Arc<SiteUrls>,
    stopping: &AtomicBool,
) {
    let ctx = Ctx { def, urls };
    loop {
        let request = match server.recv() {
            Ok(request) => request,
            Err(_) if stopping.load(Ordering::SeqCst) => return,
            // An accept error (e.g. out of file descriptors) must not end the site.
            Err(e) => {
                eprintln!("hopbench sandbox: {}: {e}", def.name);
                std::thread::sleep(std::time::Duration::from_millis(50));
                continue;
            }
        };
        let resp = match request.method() {
            Method::Get | Method::Head => site.handle(&ctx, &Req::parse(request.url())),
            _ => Resp {
                status: 405,
                content_type: "text/plain; charset=utf-8",
                body: b"Only GET is supported: every form in the sandbox uses GET.\n".to_vec(),
                location: None,
            },
        };
        // A client that hung up is not the server's problem.
        let _ = request.respond(to_tiny(resp));
    }
}

fn to_tiny(resp: Resp) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut out = Response::from_data(resp.body).with_status_code(resp.status);
    let mut headers = vec![("Content-Type", resp.content_type.to_string())];
    if let Some(location) = resp.location {
        headers.push(("Location", location));
    }
    for (name, value) in headers {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            out.add_header(h);
        }
    }
    out
}
