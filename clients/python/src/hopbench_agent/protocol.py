"""The hopbench agent protocol, version 1: typed requests and replies.

hopbench POSTs one JSON object per call to the agent's URL. ``parse_request`` turns
that object into a :class:`HelloRequest` or a :class:`StepRequest`; the agent answers
with a :class:`HelloReply` (the server helper sends it for you) or a
:class:`StepReply` holding one action.

Parsing rules:

* unknown fields are ignored at every level, so a newer hopbench that adds fields
  keeps working with this client (the whole request stays available as ``raw``);
* a field whose value may be null (``feedback``, ``memory``, ``observation.screenshot``,
  a hop's ``description``, a past step's ``action``/``error``/``note``) may also be
  absent; ``observation.images`` may be absent (read as an empty list);
* every other field is required, and a missing or mistyped one raises
  :class:`ProtocolError` naming its path, e.g. ``observation.url: missing``.
"""

from __future__ import annotations

import base64 as _b64
import json
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar, Union

from .actions import Element, elements, find_link

PROTOCOL_VERSION = 1

__all__ = [
    "PROTOCOL_VERSION",
    "ProtocolError",
    "HelloRequest",
    "StepRequest",
    "TaskBrief",
    "Site",
    "HopBrief",
    "Observation",
    "Tab",
    "Image",
    "Picture",
    "PastStep",
    "StepReply",
    "Usage",
    "HelloReply",
    "Request",
    "parse_request",
]


class ProtocolError(ValueError):
    """A request that does not follow the protocol.

    ``path`` names the offending field (``observation.url``, ``history[2].step``, or
    ``request`` for the body as a whole) and ``problem`` says what is wrong with it;
    ``str(error)`` is ``"path: problem"``.
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


# --- reading JSON values with a field path -------------------------------------------

_T = TypeVar("_T")
_MISSING = object()


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _join(path: str, key: str) -> str:
    return key if path == "request" else f"{path}.{key}"


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(path, f"expected an object, got {_type_name(value)}")
    return value


def _get(obj: Mapping[str, Any], key: str, path: str, *, optional: bool = False) -> Any:
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        if optional:
            return None
        raise ProtocolError(_join(path, key), "missing")
    return value


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(path, f"expected a string, got {_type_name(value)}")
    return value


def _opt_str(value: Any, path: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProtocolError(path, f"expected a string or null, got {_type_name(value)}")
    return value


def _int(value: Any, path: str) -> int:
    # bool is a subclass of int in Python; JSON true is not an integer.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(path, f"expected an integer, got {_type_name(value)}")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(path, f"expected a boolean, got {_type_name(value)}")
    return value


def _list(value: Any, path: str, item: Callable[[Any, str], _T]) -> List[_T]:
    if not isinstance(value, list):
        raise ProtocolError(path, f"expected a list, got {_type_name(value)}")
    return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]


# --- requests --------------------------------------------------------------------------


@dataclass
class HelloRequest:
    """``{"protocol": 1, "kind": "hello"}``: Test connection, and once before a batch."""

    protocol: int = PROTOCOL_VERSION
    kind: str = "hello"
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The request object as received (unknown fields included)."""

    def to_dict(self) -> Dict[str, Any]:
        return {"protocol": self.protocol, "kind": self.kind}


@dataclass
class Site:
    """A website the intent points to."""

    label: str
    url: str

    @classmethod
    def from_dict(cls, value: Any, path: str = "site") -> "Site":
        obj = _object(value, path)
        return cls(
            label=_str(_get(obj, "label", path), _join(path, "label")),
            url=_str(_get(obj, "url", path), _join(path, "url")),
        )


@dataclass
class HopBrief:
    """One hop of the task; ``description`` is None when the task file gives none."""

    description: Optional[str] = None

    @classmethod
    def from_dict(cls, value: Any, path: str = "hop") -> "HopBrief":
        obj = _object(value, path)
        return cls(
            description=_opt_str(
                _get(obj, "description", path, optional=True), _join(path, "description")
            )
        )


@dataclass
class TaskBrief:
    """The task as a person reads it before starting (never its scoring conditions)."""

    id: str
    intent: str
    start_urls: List[str]
    sites: List[Site]
    hops: List[HopBrief]

    @classmethod
    def from_dict(cls, value: Any, path: str = "task") -> "TaskBrief":
        obj = _object(value, path)
        return cls(
            id=_str(_get(obj, "id", path), _join(path, "id")),
            intent=_str(_get(obj, "intent", path), _join(path, "intent")),
            start_urls=_list(_get(obj, "start_urls", path), _join(path, "start_urls"), _str),
            sites=_list(_get(obj, "sites", path), _join(path, "sites"), Site.from_dict),
            hops=_list(_get(obj, "hops", path), _join(path, "hops"), HopBrief.from_dict),
        )


@dataclass
class Tab:
    """One tab of the session, in order; ``tab_focus [index]`` takes its position."""

    title: str
    current: bool

    @classmethod
    def from_dict(cls, value: Any, path: str = "tab") -> "Tab":
        obj = _object(value, path)
        return cls(
            title=_str(_get(obj, "title", path), _join(path, "title")),
            current=_bool(_get(obj, "current", path), _join(path, "current")),
        )


class _Encoded:
    """Decoding helpers shared by :class:`Picture` and :class:`Image`."""

    mime: str
    base64: str

    def data(self) -> bytes:
        """The decoded bytes."""
        return _b64.b64decode(self.base64)

    @property
    def data_url(self) -> str:
        """``data:<mime>;base64,<bytes>``, as OpenAI-style ``image_url`` parts take it."""
        return f"data:{self.mime};base64,{self.base64}"


@dataclass
class Picture(_Encoded):
    """A base64-encoded picture: the screenshot (``text+screenshot``, ``som``)."""

    mime: str
    base64: str

    @classmethod
    def from_dict(cls, value: Any, path: str = "picture") -> "Picture":
        obj = _object(value, path)
        return cls(
            mime=_str(_get(obj, "mime", path), _join(path, "mime")),
            base64=_str(_get(obj, "base64", path), _join(path, "base64")),
        )


@dataclass
class Image(_Encoded):
    """One viewport image (``text+images``); ``id`` is its element's id in the text."""

    id: int
    mime: str
    base64: str

    @classmethod
    def from_dict(cls, value: Any, path: str = "image") -> "Image":
        obj = _object(value, path)
        return cls(
            id=_int(_get(obj, "id", path), _join(path, "id")),
            mime=_str(_get(obj, "mime", path), _join(path, "mime")),
            base64=_str(_get(obj, "base64", path), _join(path, "base64")),
        )


@dataclass
class Observation:
    """The page as the agent sees it this step."""

    format: str
    """How ``text`` is written: ``mmina`` or ``compact`` (other values are passed on)."""
    mode: str
    """``text``, ``text+images``, ``text+screenshot`` or ``som``."""
    url: str
    text: str
    tabs: List[Tab]
    images: List[Image] = field(default_factory=list)
    screenshot: Optional[Picture] = None

    def elements(self) -> List[Element]:
        """The elements of ``text`` as ``Element(id, role, name)``; see ``actions.elements``."""
        return elements(self.text)

    def find_link(self, name: str) -> Optional[int]:
        """The id of the link called ``name``; see ``actions.find_link``."""
        return find_link(self.text, name)

    @classmethod
    def from_dict(cls, value: Any, path: str = "observation") -> "Observation":
        obj = _object(value, path)
        images = _get(obj, "images", path, optional=True)
        screenshot = _get(obj, "screenshot", path, optional=True)
        return cls(
            format=_str(_get(obj, "format", path), _join(path, "format")),
            mode=_str(_get(obj, "mode", path), _join(path, "mode")),
            url=_str(_get(obj, "url", path), _join(path, "url")),
            text=_str(_get(obj, "text", path), _join(path, "text")),
            tabs=_list(_get(obj, "tabs", path), _join(path, "tabs"), Tab.from_dict),
            images=(
                []
                if images is None
                else _list(images, _join(path, "images"), Image.from_dict)
            ),
            screenshot=(
                None
                if screenshot is None
                else Picture.from_dict(screenshot, _join(path, "screenshot"))
            ),
        )


@dataclass
class PastStep:
    """A recorded step. ``action`` is None when the step did nothing (then ``note``
    says why); ``error`` is set when the action failed in the browser."""

    step: int
    url: str
    action: Optional[str] = None
    error: Optional[str] = None
    note: Optional[str] = None

    @classmethod
    def from_dict(cls, value: Any, path: str = "past_step") -> "PastStep":
        obj = _object(value, path)
        return cls(
            step=_int(_get(obj, "step", path), _join(path, "step")),
            url=_str(_get(obj, "url", path), _join(path, "url")),
            action=_opt_str(_get(obj, "action", path, optional=True), _join(path, "action")),
            error=_opt_str(_get(obj, "error", path, optional=True), _join(path, "error")),
            note=_opt_str(_get(obj, "note", path, optional=True), _join(path, "note")),
        )


@dataclass
class StepRequest:
    """One step: everything needed to choose the step's action."""

    step: int
    """The step being chosen, from 1."""
    max_steps: int
    """The run ends once this many steps are recorded."""
    task: TaskBrief
    observation: Observation
    feedback: Optional[str] = None
    """Why the previous step did nothing (unreadable action, or it failed); else None."""
    history: List[PastStep] = field(default_factory=list)
    """The steps so far, oldest first."""
    memory: Optional[str] = None
    """Procedural memory (past runs as text), or None when memory is off."""
    protocol: int = PROTOCOL_VERSION
    kind: str = "step"
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The request object as received (unknown fields included)."""

    def to_dict(self) -> Dict[str, Any]:
        """The request as hopbench sends it (null fields kept): handy for fixtures."""
        out: Dict[str, Any] = {"protocol": self.protocol, "kind": self.kind}
        for f in fields(self):
            if f.name not in ("protocol", "kind", "raw"):
                out[f.name] = _plain(getattr(self, f.name), keep_none=True)
        return out

    @classmethod
    def from_dict(cls, value: Any) -> "StepRequest":
        path = "request"
        obj = _object(value, path)
        _check_header(obj, "step")
        return cls(
            step=_int(_get(obj, "step", path), "step"),
            max_steps=_int(_get(obj, "max_steps", path), "max_steps"),
            task=TaskBrief.from_dict(_get(obj, "task", path), "task"),
            observation=Observation.from_dict(_get(obj, "observation", path), "observation"),
            feedback=_opt_str(_get(obj, "feedback", path, optional=True), "feedback"),
            history=_list(_get(obj, "history", path), "history", PastStep.from_dict),
            memory=_opt_str(_get(obj, "memory", path, optional=True), "memory"),
            raw=dict(obj),
        )


Request = Union[HelloRequest, StepRequest]

_KINDS = ("hello", "step")


def _check_header(obj: Mapping[str, Any], expected_kind: Optional[str] = None) -> str:
    protocol = _int(_get(obj, "protocol", "request"), "protocol")
    if protocol != PROTOCOL_VERSION:
        raise ProtocolError(
            "protocol",
            f"unsupported version {protocol} (this client speaks {PROTOCOL_VERSION})",
        )
    kind = _str(_get(obj, "kind", "request"), "kind")
    if kind not in _KINDS:
        raise ProtocolError("kind", f"unknown kind {kind!r} (expected 'hello' or 'step')")
    if expected_kind is not None and kind != expected_kind:
        raise ProtocolError("kind", f"expected {expected_kind!r}, got {kind!r}")
    return kind


def parse_request(obj: Any) -> Request:
    """Reads one decoded JSON request into a :class:`HelloRequest` or :class:`StepRequest`.

    Raises :class:`ProtocolError` (a ``ValueError``) naming the field path when a
    required field is missing or has the wrong type, when ``protocol`` is not 1 or when
    ``kind`` is unknown. Unknown fields are ignored.
    """
    body = _object(obj, "request")
    kind = _check_header(body)
    if kind == "hello":
        return HelloRequest(raw=dict(body))
    return StepRequest.from_dict(body)


# --- replies -----------------------------------------------------------------------------


def _plain(value: Any, *, keep_none: bool) -> Any:
    """A dataclass tree as JSON-ready dicts and lists; None fields dropped unless kept."""
    if is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in fields(value):
            if f.name == "raw":
                continue
            item = getattr(value, f.name)
            if item is None and not keep_none:
                continue
            out[f.name] = _plain(item, keep_none=keep_none)
        return out
    if isinstance(value, list):
        return [_plain(v, keep_none=keep_none) for v in value]
    return value


def _reply_dict(value: Any) -> Dict[str, Any]:
    out = _plain(value, keep_none=False)
    assert isinstance(out, dict)
    return out


def _check_count(value: Any, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"Usage.{name} must be a non-negative int, got {value!r}")


@dataclass
class Usage:
    """Tokens the agent spent on the step (its own model calls), for the reports."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __post_init__(self) -> None:
        _check_count(self.input_tokens, "input_tokens")
        _check_count(self.output_tokens, "output_tokens")

    def to_dict(self) -> Dict[str, Any]:
        return _reply_dict(self)


@dataclass
class StepReply:
    """The reply to a step: one action in the action language, e.g. ``click [12]``."""

    action: str
    reasoning: Optional[str] = None
    """Why the agent chose it; shown beside the action in hopbench's viewer."""
    usage: Optional[Usage] = None

    def __post_init__(self) -> None:
        if not isinstance(self.action, str):
            raise TypeError(f"StepReply.action must be a str, got {type(self.action).__name__}")
        if self.reasoning is not None and not isinstance(self.reasoning, str):
            raise TypeError(
                f"StepReply.reasoning must be a str or None, got {type(self.reasoning).__name__}"
            )
        if self.usage is not None and not isinstance(self.usage, Usage):
            raise TypeError(
                f"StepReply.usage must be a Usage or None, got {type(self.usage).__name__}"
            )

    def to_dict(self) -> Dict[str, Any]:
        """The reply as a JSON object, without the fields that are None."""
        return _reply_dict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)


@dataclass
class HelloReply:
    """The reply to a hello: the agent's name and version (reports show them as the
    agent's "model")."""

    name: str
    version: str
    protocol: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        for attr in ("name", "version"):
            value = getattr(self, attr)
            if not isinstance(value, str) or not value.strip():
                raise TypeError(f"HelloReply.{attr} must be a non-empty str, got {value!r}")

    def to_dict(self) -> Dict[str, Any]:
        """The reply as a JSON object, without the fields that are None."""
        return _reply_dict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)
