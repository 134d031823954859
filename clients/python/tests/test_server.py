from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import urllib.parse

import pytest
from support import post, step_dict

from hopbench_agent import (
    MAX_BODY_BYTES,
    StepReply,
    StepRequest,
    Usage,
    click,
    make_server,
)


def _echo_link(request: StepRequest) -> str:
    return click(request.observation.find_link("Lumen Hybrid"))


def test_hello(agent_server):
    server = agent_server(_echo_link, name="follow-links", version="0.1.0")
    assert server.url == f"http://127.0.0.1:{server.port}/"
    assert server.port != 0
    status, body = post(server.url, {"protocol": 1, "kind": "hello"})
    assert status == 200
    assert body == {"protocol": 1, "name": "follow-links", "version": "0.1.0"}


def test_step_with_act_returning_a_string(agent_server):
    seen = []

    def act(request: StepRequest) -> str:
        seen.append(request)
        return _echo_link(request)

    server = agent_server(act)
    status, body = post(server.url, step_dict())
    assert (status, body) == (200, {"action": "click [15]"})
    # act got the typed request.
    assert len(seen) == 1 and isinstance(seen[0], StepRequest)
    assert seen[0].task.id == "sb-06-lumen-hybrid-colour" and seen[0].step == 3


def test_step_with_act_returning_a_step_reply_and_any_path(agent_server):
    def act(request: StepRequest) -> StepReply:
        return StepReply("stop [green]", reasoning="the picture is green", usage=Usage(120, 14))

    server = agent_server(act)
    status, body = post(server.url + "some/path?x=1", step_dict())
    assert status == 200
    assert body == {
        "action": "stop [green]",
        "reasoning": "the picture is green",
        "usage": {"input_tokens": 120, "output_tokens": 14},
    }


def test_bad_json_is_400(agent_server):
    server = agent_server(_echo_link)
    status, body = post(server.url, None, raw=b'{"protocol": 1, "kind": ')
    assert status == 400
    assert body["error"]["message"].startswith("the body is not JSON")
    status, body = post(server.url, None, raw=b"\xff\xfe")
    assert status == 400 and "not UTF-8" in body["error"]["message"]


def test_invalid_request_is_400_naming_the_field(agent_server):
    called = []
    server = agent_server(lambda r: called.append(r) or "go_back")
    bad = step_dict()
    del bad["observation"]["url"]
    status, body = post(server.url, bad)
    assert status == 400
    assert body == {"error": {"message": "invalid request: observation.url: missing"}}
    status, body = post(server.url, {"protocol": 1, "kind": "step", "step": "one"})
    assert status == 400 and "step: expected an integer" in body["error"]["message"]
    status, body = post(server.url, {"protocol": 7, "kind": "hello"})
    assert status == 400 and "protocol: unsupported version 7" in body["error"]["message"]
    assert called == []  # act never saw an invalid request


def test_act_raising_is_500_with_type_and_text(agent_server, capsys):
    def act(request: StepRequest) -> str:
        raise KeyError("no plan for this page")

    server = agent_server(act)
    status, body = post(server.url, step_dict())
    assert status == 500
    assert body == {"error": {"message": "act raised KeyError: 'no plan for this page'"}}
    # The traceback goes to stderr for the agent's author.
    assert "Traceback" in capsys.readouterr().err
    # The server keeps serving.
    assert post(server.url, {"protocol": 1, "kind": "hello"})[0] == 200


def test_act_returning_something_else_is_500(agent_server):
    server = agent_server(lambda request: {"action": "click [1]"})
    status, body = post(server.url, step_dict())
    assert status == 500
    assert "act returned dict; expected a StepReply or a str" in body["error"]["message"]


def test_key_is_required_when_configured(agent_server):
    server = agent_server(_echo_link, key="s3cret")
    hello = {"protocol": 1, "kind": "hello"}
    status, body = post(server.url, hello)
    assert status == 401 and "missing authorization" in body["error"]["message"]
    status, body = post(server.url, hello, {"authorization": "Bearer wrong"})
    assert status == 401 and "wrong key" in body["error"]["message"]
    status, body = post(server.url, hello, {"authorization": "Basic s3cret"})
    assert status == 401
    status, body = post(server.url, hello, {"authorization": "Bearer s3cret"})
    assert status == 200 and body["name"] == "test-agent"
    status, body = post(server.url, step_dict(), {"authorization": "Bearer s3cret"})
    assert (status, body) == (200, {"action": "click [15]"})


def test_form_and_plain_text_bodies_are_415(agent_server):
    # What any web page could send to the agent without a CORS preflight.
    called = []
    server = agent_server(lambda r: called.append(r) or "go_back")
    for content_type in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded"):
        status, body = post(server.url, step_dict(), {"content-type": content_type})
        assert status == 415 and "application/json" in body["error"]["message"]
    assert called == []
    # JSON, with or without parameters, is served.
    ok = post(server.url, step_dict(), {"content-type": "application/json; charset=utf-8"})
    assert ok == (200, {"action": "go_back"})
    # So is a body without a content type (not something a browser sends).
    parts = urllib.parse.urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("POST", "/", body=json.dumps(step_dict()).encode())
        response = conn.getresponse()
        assert (response.status, json.loads(response.read())) == (200, {"action": "go_back"})
    finally:
        conn.close()


def test_other_methods_are_405(agent_server):
    server = agent_server(_echo_link)
    status, body = post(server.url, None, method="GET")
    assert status == 405 and "POST" in body["error"]["message"]


def test_body_over_the_limit_is_413_without_reading_it(agent_server):
    server = agent_server(_echo_link)
    parts = urllib.parse.urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        # Only the headers are sent: the server must answer from content-length alone.
        conn.putrequest("POST", "/")
        conn.putheader("content-type", "application/json")
        conn.putheader("content-length", str(MAX_BODY_BYTES + 1))
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 413
        assert "at most" in json.loads(response.read())["error"]["message"]
    finally:
        conn.close()


def test_chunked_body_and_keep_alive(agent_server):
    server = agent_server(_echo_link)
    parts = urllib.parse.urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        payload = json.dumps(step_dict()).encode()
        chunks = [payload[:100], payload[100:]]
        conn.request("POST", "/", body=iter(chunks), headers={"content-type": "application/json"},
                     encode_chunked=True)
        first = conn.getresponse()
        assert first.status == 200 and json.loads(first.read()) == {"action": "click [15]"}
        # The same connection serves the next request.
        conn.request("POST", "/", body=b'{"protocol": 1, "kind": "hello"}',
                     headers={"content-type": "application/json"})
        second = conn.getresponse()
        assert second.status == 200 and json.loads(second.read())["name"] == "test-agent"
    finally:
        conn.close()


def test_concurrent_requests_are_served(agent_server):
    gate = threading.Barrier(2, timeout=10)

    def act(request: StepRequest) -> str:
        gate.wait()  # both requests must be inside act at once
        return "scroll [down]"

    server = agent_server(act)
    results = []
    threads = [threading.Thread(target=lambda: results.append(post(server.url, step_dict())))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=15)
    assert results == [(200, {"action": "scroll [down]"})] * 2


def test_close_frees_the_port_and_is_idempotent():
    server = make_server(_echo_link, name="a", version="1")
    server.serve_in_background()
    url = server.url
    assert post(url, {"protocol": 1, "kind": "hello"})[0] == 200
    server.close()
    server.close()
    with pytest.raises(OSError):
        post(url, {"protocol": 1, "kind": "hello"})


def test_close_without_serving_and_context_manager():
    with make_server(_echo_link, name="a", version="1") as server:
        assert server.port > 0
    server.close()  # already closed: no error, no hang


def test_handle_body_without_http():
    server = make_server(_echo_link, name="a", version="1")
    try:
        assert server.handle_body(json.dumps(step_dict()).encode()) == (
            200, {"action": "click [15]"})
        assert server.handle_body(b"[]")[0] == 400
    finally:
        server.close()


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_serve_prints_the_listening_line_and_stops_on_ctrl_c(tmp_path):
    # serve() in a child process: the line comes first and is flushed, SIGINT ends it.
    script = tmp_path / "agent.py"
    script.write_text(
        "from hopbench_agent import serve\n"
        "serve(lambda r: 'go_back', name='tiny', version='2.0', port=0)\n"
    )
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("hopbench agent tiny 2.0 listening on http://127.0.0.1:")
        url = line.rsplit(" ", 1)[1]
        assert url.endswith("/")
        assert post(url, step_dict()) == (200, {"action": "go_back"})
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()



@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sent", ["SIGINT", "SIGTERM"])
def test_serve_stops_on_ctrl_c_or_sigterm_even_started_as_a_background_job(tmp_path, sent):
    # A shell's background job starts with SIGINT ignored (CI runs the tests so);
    # serve() still stops on Ctrl-C, and on SIGTERM (what process managers send).
    script = tmp_path / "agent.py"
    script.write_text(
        "from hopbench_agent import serve\n"
        "serve(lambda r: 'go_back', name='tiny', version='2.0', port=0)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert proc.stdout.readline().startswith("hopbench agent tiny 2.0 listening on ")
        proc.send_signal(getattr(signal, sent))
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
