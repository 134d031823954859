"""An HTTP server that speaks the agent protocol around one ``act`` function.

``act(request: StepRequest) -> StepReply | str`` chooses the step's action (a plain
string is the action). The server answers hello requests itself, with the name and
version it was given, and turns errors into the protocol's JSON error replies:

* 400 ``{"error": {"message": ...}}``: the body is not JSON, or not a valid request
  (the message names the field);
* 401: a key was configured and the ``authorization: Bearer <key>`` header is
  missing or wrong;
* 413: a body over 64 MiB;
* 415: a body sent as a form or plain text (``content-type`` ``text/plain``,
  ``application/x-www-form-urlencoded`` or ``multipart/form-data``): the types a web
  page may POST to any address without the browser asking first, so a page the person
  visits cannot make the agent act (and spend model tokens). A request without a
  content type is accepted;
* 500: ``act`` raised (the message holds the exception's type and text; the
  traceback goes to stderr) or returned something that is not a reply.

Every path is accepted; methods other than POST get 405.
"""

from __future__ import annotations

import hmac
import json
import signal
import socket
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, Union

from .protocol import (
    HelloReply,
    HelloRequest,
    ProtocolError,
    StepReply,
    StepRequest,
    parse_request,
)

__all__ = ["MAX_BODY_BYTES", "AgentServer", "make_server", "serve", "Act"]

MAX_BODY_BYTES = 64 * 1024 * 1024
"""Bodies larger than this are refused with 413."""

Act = Callable[[StepRequest], Union[StepReply, str]]

# What a web page can POST cross-origin without a CORS preflight.
_FORM_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data")


class _HttpError(Exception):
    def __init__(self, status: int, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.close = close


class _Handler(BaseHTTPRequestHandler):
    # Keep-alive, so hopbench can reuse one connection for a run's steps.
    protocol_version = "HTTP/1.1"
    # An idle kept-alive connection is dropped after this many seconds.
    timeout = 300
    server: "_HttpServer"

    # -- plumbing ---------------------------------------------------------------------

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib name)
        if self.server.agent.log:
            super().log_message(format, *args)

    def _send_json(
        self, status: int, payload: Dict[str, Any], headers: Optional[Dict[str, str]] = None
    ) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _send_error_json(self, error: _HttpError) -> None:
        if error.close:
            self.close_connection = True
        headers = {}
        if error.status == 401:
            headers["www-authenticate"] = 'Bearer realm="hopbench agent"'
        if error.status == 405:
            headers["allow"] = "POST"
        self._send_json(error.status, {"error": {"message": error.message}}, headers)

    def _read_body(self) -> bytes:
        encoding = (self.headers.get("transfer-encoding") or "").strip().lower()
        if encoding == "chunked":
            return self._read_chunked()
        if encoding and encoding != "identity":
            raise _HttpError(400, f"unsupported transfer-encoding {encoding!r}", close=True)
        length_header = self.headers.get("content-length")
        if length_header is None:
            return b""
        try:
            length = int(length_header)
            if length < 0:
                raise ValueError(length_header)
        except ValueError:
            raise _HttpError(
                400, f"invalid content-length {length_header!r}", close=True
            ) from None
        if length > MAX_BODY_BYTES:
            raise _HttpError(
                413, f"the body is {length} bytes; at most {MAX_BODY_BYTES} are accepted",
                close=True,
            )
        body = self.rfile.read(length)
        if len(body) != length:
            raise _HttpError(400, "the body ended before content-length", close=True)
        return body

    def _read_chunked(self) -> bytes:
        chunks: List[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise _HttpError(400, "malformed chunked body", close=True) from None
            if size == 0:
                # Trailers, up to the blank line.
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            total += size
            if total > MAX_BODY_BYTES:
                raise _HttpError(
                    413, f"the body is over {MAX_BODY_BYTES} bytes", close=True
                )
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                raise _HttpError(400, "the chunked body ended early", close=True)
            chunks.append(chunk)
            self.rfile.readline(1024)  # the CRLF after each chunk

    def _check_content_type(self) -> None:
        value = self.headers.get("content-type")
        if value is None:
            return
        media_type = value.split(";", 1)[0].strip().lower()
        if media_type in _FORM_TYPES:
            raise _HttpError(
                415, f"content-type {media_type} is refused; send the JSON body with "
                "content-type: application/json"
            )

    def _check_key(self) -> None:
        key = self.server.agent.key
        if key is None:
            return
        header = self.headers.get("authorization")
        if header is None:
            raise _HttpError(401, "missing authorization header (expected: Bearer <key>)")
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            token.strip().encode("utf-8"), key.encode("utf-8")
        ):
            raise _HttpError(401, "wrong key in the authorization header")

    # -- methods --------------------------------------------------------------------------

    def do_POST(self) -> None:  # noqa: N802 (stdlib name)
        try:
            # The body is read before the key is checked: answering without reading it
            # would close a connection with unread data, which can reset it before the
            # client sees the reply.
            body = self._read_body()
            self._check_key()
            self._check_content_type()
        except _HttpError as error:
            self._send_error_json(error)
            return
        status, payload = self.server.agent.handle_body(body)
        self._send_json(status, payload)

    def _not_allowed(self) -> None:
        if self.headers.get("content-length") not in (None, "0"):
            self.close_connection = True  # the body is not read
        self._send_error_json(
            _HttpError(405, f"{self.command} is not supported: hopbench agents take POST "
                            "requests (agent protocol 1)")
        )

    do_GET = do_PUT = do_DELETE = do_PATCH = _not_allowed  # noqa: N815

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(405)
        self.send_header("allow", "POST")
        self.send_header("content-length", "0")
        self.end_headers()


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    agent: "AgentServer"

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hung up (hopbench timed out, or was stopped) is not an error of
        # the agent's; anything else is printed as usual.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, socket.timeout)):
            return
        super().handle_error(request, client_address)


class _HttpServer6(_HttpServer):
    address_family = socket.AF_INET6


class AgentServer:
    """An agent protocol server; make it with :func:`make_server`.

    ``url`` is where it listens (``http://127.0.0.1:PORT/``). Run it with
    :meth:`serve_forever` or :meth:`serve_in_background`; :meth:`close` stops it and
    frees the port. Also a context manager (closing on exit).
    """

    def __init__(
        self,
        act: Act,
        *,
        name: str,
        version: str,
        host: str = "127.0.0.1",
        port: int = 0,
        key: Optional[str] = None,
        log: bool = False,
    ) -> None:
        if not callable(act):
            raise TypeError(f"act must be callable, got {type(act).__name__}")
        if key is not None and (not isinstance(key, str) or not key):
            raise ValueError("key must be a non-empty str or None")
        self.act = act
        self.hello = HelloReply(name=name, version=version)
        self.key = key
        self.log = log
        server_class: Type[_HttpServer] = _HttpServer6 if ":" in host else _HttpServer
        self._httpd = server_class((host, port), _Handler)
        self._httpd.agent = self
        self._thread: Optional[threading.Thread] = None
        self._serving = False
        self._closed = False

    @property
    def host(self) -> str:
        return str(self._httpd.server_address[0])

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    # -- the protocol, without HTTP ----------------------------------------------------------

    def handle_body(self, body: bytes) -> Tuple[int, Dict[str, Any]]:
        """One request body → (status, JSON reply). Used by the HTTP handler; also
        handy to test an agent without a socket."""
        try:
            obj = json.loads(body.decode("utf-8"))
        except UnicodeDecodeError as error:
            return 400, _error(f"the body is not UTF-8: {error}")
        except json.JSONDecodeError as error:
            return 400, _error(f"the body is not JSON: {error}")
        try:
            request = parse_request(obj)
        except ProtocolError as error:
            return 400, _error(f"invalid request: {error}")
        if isinstance(request, HelloRequest):
            return 200, self.hello.to_dict()
        try:
            result = self.act(request)
        except Exception as error:  # the agent's bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            return 500, _error(f"act raised {type(error).__name__}: {error}")
        if isinstance(result, str):
            result = StepReply(action=result)
        if not isinstance(result, StepReply):
            return 500, _error(
                f"act returned {type(result).__name__}; expected a StepReply or a str"
            )
        return 200, result.to_dict()

    # -- running -------------------------------------------------------------------------------

    def serve_forever(self) -> None:
        """Serves until :meth:`close` is called (from another thread) or Ctrl-C."""
        if self._closed:
            raise RuntimeError("the server is closed")
        self._serving = True
        try:
            self._httpd.serve_forever(poll_interval=0.2)
        finally:
            self._serving = False

    def serve_in_background(self) -> threading.Thread:
        """Serves on a daemon thread and returns it."""
        if self._thread is not None:
            raise RuntimeError("the server is already running")
        self._thread = threading.Thread(
            target=self.serve_forever, name=f"hopbench-agent {self.url}", daemon=True
        )
        self._thread.start()
        return self._thread

    def close(self) -> None:
        """Stops serving and frees the port. Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        # shutdown() waits for serve_forever to return: only call it when a loop runs
        # or is about to (a started background thread always enters it).
        if self._thread is not None or self._serving:
            self._httpd.shutdown()
        if self._thread is not None:
            self._thread.join()
        self._httpd.server_close()

    def __enter__(self) -> "AgentServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _error(message: str) -> Dict[str, Any]:
    return {"error": {"message": message}}


def make_server(
    act: Act,
    *,
    name: str,
    version: str,
    host: str = "127.0.0.1",
    port: int = 0,
    key: Optional[str] = None,
    log: bool = False,
) -> AgentServer:
    """Binds a server for ``act`` (port 0: a free port; see ``.url``) without serving
    yet. For tests and embedding::

        server = make_server(act, name="mine", version="1")
        server.serve_in_background()
        ...  # POST to server.url
        server.close()
    """
    return AgentServer(act, name=name, version=version, host=host, port=port, key=key, log=log)


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM end ``serve()`` cleanly. Set here, not left to
    Python's default: a process a shell starts as a background job inherits SIGINT
    ignored, and Python then never raises KeyboardInterrupt for it. Only the main
    thread may set handlers; elsewhere the defaults stay."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, stop)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, stop)


def serve(
    act: Act,
    *,
    name: str,
    version: str,
    host: str = "127.0.0.1",
    port: int = 8700,
    key: Optional[str] = None,
    log: bool = False,
) -> None:
    """Serves ``act`` until Ctrl-C or SIGTERM. Prints (and flushes) one line first:
    ``hopbench agent NAME VERSION listening on http://HOST:PORT/``."""
    server = make_server(act, name=name, version=version, host=host, port=port, key=key, log=log)
    try:
        # The handlers before the line: whoever starts the agent may signal it as soon
        # as they read the line, which may be while print is still returning.
        _stop_on_signals()
        print(f"hopbench agent {name} {version} listening on {server.url}", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
