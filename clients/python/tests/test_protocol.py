from __future__ import annotations

import json
import re

import pytest
from support import MMINA_TEXT, step_dict

from hopbench_agent import (
    PROTOCOL_VERSION,
    HelloReply,
    HelloRequest,
    HopBrief,
    Image,
    Observation,
    PastStep,
    Picture,
    ProtocolError,
    Site,
    StepReply,
    StepRequest,
    Tab,
    TaskBrief,
    Usage,
    parse_request,
)


def test_hello_request():
    request = parse_request({"protocol": 1, "kind": "hello"})
    assert isinstance(request, HelloRequest)
    assert request.protocol == PROTOCOL_VERSION == 1
    assert request.to_dict() == {"protocol": 1, "kind": "hello"}


def test_full_step_request_is_typed(step_body):
    request = parse_request(step_body)
    assert isinstance(request, StepRequest)
    assert (request.step, request.max_steps, request.kind) == (3, 30, "step")

    task = request.task
    assert isinstance(task, TaskBrief)
    assert task.id == "sb-06-lumen-hybrid-colour"
    assert task.intent.startswith("What colour is the Lumen Hybrid")
    assert task.start_urls == ["http://127.0.0.1:8603/"]
    assert task.sites == [Site(label="Northwind Car Rental", url="http://127.0.0.1:8603/")]
    assert task.hops == [HopBrief("Reach the fleet page"), HopBrief(None)]

    obs = request.observation
    assert isinstance(obs, Observation)
    assert (obs.format, obs.mode, obs.url) == ("mmina", "text+images", "http://127.0.0.1:8603/fleet")
    assert obs.text == MMINA_TEXT
    assert obs.tabs == [Tab("Fleet - Northwind Car Rental", True), Tab("Tokyo Tower - Wiki", False)]
    assert obs.images == [Image(id=14, mime="image/png", base64="iVBORw0KGgo=")]
    assert obs.images[0].data() == b"\x89PNG\r\n\x1a\n"
    assert obs.images[0].data_url == "data:image/png;base64,iVBORw0KGgo="
    assert obs.screenshot is None

    assert request.feedback is None and request.memory is None
    assert request.history == [
        PastStep(step=1, url="http://127.0.0.1:8603/", action="click [6]"),
        PastStep(step=2, url="http://127.0.0.1:8603/fleet", note="malformed reply: no action"),
    ]
    # The helpers on the observation read its text.
    assert obs.find_link("Lumen Hybrid") == 15
    assert (6, "link", "Our fleet") in obs.elements()


def test_screenshot_feedback_and_memory():
    body = step_dict(feedback="the previous action could not be read", memory="Run 1: ...")
    body["observation"]["mode"] = "som"
    body["observation"]["images"] = []
    body["observation"]["screenshot"] = {"mime": "image/png", "base64": "AAAA"}
    request = parse_request(body)
    assert request.feedback == "the previous action could not be read"
    assert request.memory == "Run 1: ..."
    assert request.observation.images == []
    assert request.observation.screenshot == Picture(mime="image/png", base64="AAAA")


def test_unknown_fields_are_ignored_at_every_level():
    body = step_dict(future_field={"x": 1})
    body["task"]["difficulty"] = "hard"
    body["task"]["sites"][0]["favicon"] = "x.ico"
    body["task"]["hops"][0]["kind"] = "url"
    body["observation"]["viewport"] = {"width": 1280}
    body["observation"]["tabs"][0]["url"] = "http://127.0.0.1:8603/fleet"
    body["observation"]["images"][0]["alt"] = "a car"
    body["history"][0]["duration_ms"] = 412
    request = parse_request(body)
    assert request == parse_request(step_dict())
    # The request as received stays reachable, new fields included.
    assert request.raw["future_field"] == {"x": 1}


def test_nullable_fields_may_be_absent():
    body = step_dict()
    for key in ("feedback", "memory"):
        del body[key]
    del body["observation"]["screenshot"]
    del body["observation"]["images"]
    del body["task"]["hops"][0]["description"]
    for key in ("action", "error", "note"):
        del body["history"][0][key]
    request = parse_request(body)
    assert request.feedback is None and request.memory is None
    assert request.observation.screenshot is None and request.observation.images == []
    assert request.task.hops[0].description is None
    assert request.history[0].action is None


def _without(path: str):
    """step_dict() with the field at a dotted path (list indices as numbers) removed."""
    body = step_dict()
    *parents, last = path.split(".")
    node = body
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    del node[last]
    return body


@pytest.mark.parametrize(
    "path, message",
    [
        ("protocol", "protocol: missing"),
        ("kind", "kind: missing"),
        ("step", "step: missing"),
        ("max_steps", "max_steps: missing"),
        ("task", "task: missing"),
        ("task.id", "task.id: missing"),
        ("task.intent", "task.intent: missing"),
        ("task.sites.0.url", "task.sites[0].url: missing"),
        ("observation", "observation: missing"),
        ("observation.url", "observation.url: missing"),
        ("observation.text", "observation.text: missing"),
        ("observation.tabs.1.current", "observation.tabs[1].current: missing"),
        ("observation.images.0.base64", "observation.images[0].base64: missing"),
        ("history", "history: missing"),
        ("history.1.step", "history[1].step: missing"),
    ],
)
def test_missing_required_field_names_its_path(path, message):
    with pytest.raises(ProtocolError) as caught:
        parse_request(_without(path))
    assert str(caught.value) == message
    assert caught.value.path == message.split(":")[0]
    assert caught.value.problem == "missing"


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda b: b.update(step="3"), "step: expected an integer, got a string"),
        (lambda b: b.update(step=True), "step: expected an integer, got a boolean"),
        (lambda b: b.update(max_steps=30.5), "max_steps: expected an integer, got a number"),
        (lambda b: b.update(history={}), "history: expected a list, got an object"),
        (lambda b: b.update(feedback=3), "feedback: expected a string or null, got an integer"),
        (lambda b: b["task"].update(start_urls=["http://a/", None]),
         "task.start_urls[1]: expected a string, got null"),
        (lambda b: b["observation"]["tabs"][0].update(current="yes"),
         "observation.tabs[0].current: expected a boolean, got a string"),
        (lambda b: b["observation"].update(screenshot="png"),
         "observation.screenshot: expected an object, got a string"),
        (lambda b: b["observation"]["images"][0].update(id="14"),
         "observation.images[0].id: expected an integer, got a string"),
        (lambda b: b.update(task=[]), "task: expected an object, got a list"),
    ],
)
def test_wrong_types_name_the_field(mutate, message):
    body = step_dict()
    mutate(body)
    with pytest.raises(ProtocolError, match=r"^" + re.escape(message) + "$"):
        parse_request(body)


def test_protocol_version_kind_and_body_shape():
    with pytest.raises(ProtocolError, match=r"^protocol: unsupported version 2"):
        parse_request({"protocol": 2, "kind": "hello"})
    with pytest.raises(ProtocolError, match=r"^kind: unknown kind 'bye'"):
        parse_request({"protocol": 1, "kind": "bye"})
    with pytest.raises(ProtocolError, match=r"^request: expected an object, got a list"):
        parse_request([1, 2])
    # ProtocolError is a ValueError, so generic handlers catch it too.
    assert issubclass(ProtocolError, ValueError)


def test_step_request_round_trips_through_to_dict(step_body):
    request = parse_request(step_body)
    assert request.to_dict() == step_body
    assert parse_request(json.loads(json.dumps(request.to_dict()))) == request


def test_step_reply_omits_none_fields():
    assert StepReply("click [12]").to_dict() == {"action": "click [12]"}
    assert json.loads(StepReply("stop [N/A]").to_json()) == {"action": "stop [N/A]"}
    full = StepReply("click [12]", reasoning="the fleet link", usage=Usage(120, 14))
    assert full.to_dict() == {
        "action": "click [12]",
        "reasoning": "the fleet link",
        "usage": {"input_tokens": 120, "output_tokens": 14},
    }
    assert json.loads(full.to_json()) == full.to_dict()
    # Non-ASCII text stays readable in the JSON.
    assert "東京" in StepReply("stop [東京]").to_json()


def test_reply_checks_types():
    with pytest.raises(TypeError):
        StepReply(12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        StepReply("click [1]", usage={"input_tokens": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Usage(input_tokens=-1)
    with pytest.raises(TypeError):
        HelloReply(name="", version="1")


def test_hello_reply():
    reply = HelloReply(name="follow-links", version="0.1.0")
    assert reply.to_dict() == {"name": "follow-links", "version": "0.1.0", "protocol": 1}
    assert json.loads(reply.to_json()) == reply.to_dict()
