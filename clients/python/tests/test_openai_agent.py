from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List

import pytest
from support import MMINA_TEXT, load_example, post, step_dict

from hopbench_agent import parse_request

openai_agent = load_example("openai_agent")


class FakeChatServer:
    """A tiny OpenAI-compatible server: records each POST and answers with the next
    canned reply (a dict sent as JSON with status 200, or an (int, body) pair)."""

    def __init__(self, replies: List[Any]) -> None:
        self.replies = list(replies)
        self.requests: List[Dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers["content-length"])
                fake.requests.append({
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": json.loads(self.rfile.read(length)),
                })
                reply = fake.replies.pop(0)
                status, payload = reply if isinstance(reply, tuple) else (200, reply)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.thread.join()
        self.httpd.server_close()


@pytest.fixture
def fake_chat():
    started = []

    def start(*replies: Any) -> FakeChatServer:
        server = FakeChatServer(list(replies))
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


def completion(text: str, usage: Any = None) -> Dict[str, Any]:
    reply: Dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
    }
    if usage is not None:
        reply["usage"] = usage
    return reply


def test_end_to_end_through_the_agent_server(fake_chat, agent_server):
    model = fake_chat(completion(
        "The fleet page lists the Lumen Hybrid; open it.\nclick [15]",
        usage={"prompt_tokens": 812, "completion_tokens": 17, "total_tokens": 829},
    ))
    config = openai_agent.ModelConfig(base_url=model.base_url + "/", model="tiny-model",
                                      api_key="sk-test")
    server = agent_server(openai_agent.make_act(config))
    body = step_dict(feedback="your last action could not be read: no action found")
    status, reply = post(server.url, body)

    assert status == 200
    assert reply == {
        "action": "click [15]",
        "reasoning": "The fleet page lists the Lumen Hybrid; open it.\nclick [15]",
        "usage": {"input_tokens": 812, "output_tokens": 17},
    }
    # What the model server received.
    (sent,) = model.requests
    assert sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["authorization"] == "Bearer sk-test"
    assert sent["body"]["model"] == "tiny-model"
    system, user = sent["body"]["messages"]
    assert system["role"] == "system" and "stop [answer]" in system["content"]
    assert user["role"] == "user" and isinstance(user["content"], str)
    prompt = user["content"]
    assert body["task"]["intent"] in prompt
    assert MMINA_TEXT in prompt
    assert "http://127.0.0.1:8603/fleet" in prompt
    assert "1. click [6] on http://127.0.0.1:8603/" in prompt  # the history
    assert "no action found" in prompt  # the feedback
    assert "step 3 of at most 30" in prompt
    # Without --vision, no pictures are sent.
    assert "image_url" not in json.dumps(sent["body"])


def test_vision_sends_images_and_screenshot_as_data_urls(fake_chat):
    model = fake_chat(completion("```\nstop [green]\n```"))
    config = openai_agent.ModelConfig(base_url=model.base_url, model="m", vision=True)
    body = step_dict()
    body["observation"]["screenshot"] = {"mime": "image/jpeg", "base64": "/9j/"}

    reply = openai_agent.make_act(config)(parse_request(body))
    assert reply.action == "stop [green]"
    assert reply.usage is None  # the fake sent no usage
    (sent,) = model.requests
    assert "authorization" not in sent["headers"]
    parts = sent["body"]["messages"][1]["content"]
    assert parts[0]["type"] == "text" and body["task"]["intent"] in parts[0]["text"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert urls == ["data:image/png;base64,iVBORw0KGgo=", "data:image/jpeg;base64,/9j/"]
    assert any(p["type"] == "text" and "[14]" in p["text"] for p in parts)


def test_model_error_becomes_a_500_that_hopbench_retries(fake_chat, agent_server):
    model = fake_chat((503, {"error": {"message": "loading model"}}))
    config = openai_agent.ModelConfig(base_url=model.base_url, model="m")
    server = agent_server(openai_agent.make_act(config))
    status, reply = post(server.url, step_dict())
    assert status == 500
    assert "ModelError" in reply["error"]["message"]
    assert "503" in reply["error"]["message"]


def test_reply_without_an_action_is_passed_on_as_its_last_line(fake_chat):
    model = fake_chat(completion("I am not sure what to do here.\nMaybe look around."))
    config = openai_agent.ModelConfig(base_url=model.base_url, model="m")
    reply = openai_agent.make_act(config)(parse_request(step_dict()))
    assert reply.action == "Maybe look around."


@pytest.mark.parametrize(
    "text, action",
    [
        ("Let me click the link.\nclick [12]", "click [12]"),
        ("click [3]\nActually no.\ntype [13] [merino beanie] [1]", "type [13] [merino beanie] [1]"),
        ("Reasoning...\n```\nscroll [down]\n```", "scroll [down]"),
        ("Reasoning...\n```text\nstop [333 m]\n```\nThat is my answer.", "stop [333 m]"),
        ("`go_back`", "go_back"),
        ("**Action:** press [Control+v]", "press [Control+v]"),
        ("Action: click [7] to open the fleet page", "click [7]"),
        ("stop [the [bracketed] answer].", "stop [the [bracketed] answer]"),
        ("new_tab", "new_tab"),
        ("I should type [the name] somewhere\nType the name", None),
        ("Nothing to do.", None),
        ("", None),
    ],
)
def test_extract_action(text, action):
    assert openai_agent.extract_action(text) == action
