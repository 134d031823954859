"""Building action strings and reading elements out of the observation text.

hopbench reads exactly one action per step, in the MMInA / WebArena action language::

    click [id]            hover [id]            type [id] [text] [1|0]
    press [key_comb]      scroll [up|down]      new_tab
    tab_focus [index]     close_tab             goto [url]
    go_back               go_forward            stop [answer]

The builders here (``click(12)``, ``type_text(13, "merino beanie")``, ``stop("purple")``)
return such strings and raise :class:`ActionError` (a ``ValueError``) for arguments
that cannot be written in the language: a non-integer id, a line break, an unknown
scroll direction or key.

The observation helpers read element lines, ``[12] link 'Tokyo Tower'`` (indented by
tabs in the ``mmina`` format, unindented in ``compact``), into ``Element(id, role,
name)`` tuples.
"""

from __future__ import annotations

import ast
import re
from typing import Any, List, NamedTuple, Optional, Union

__all__ = [
    "ACTION_NAMES",
    "ActionError",
    "Element",
    "click",
    "hover",
    "type_text",
    "press",
    "scroll",
    "new_tab",
    "tab_focus",
    "close_tab",
    "goto",
    "go_back",
    "go_forward",
    "stop",
    "elements",
    "find_element",
    "find_link",
]

ACTION_NAMES = (
    "click",
    "hover",
    "type",
    "press",
    "scroll",
    "new_tab",
    "tab_focus",
    "close_tab",
    "goto",
    "go_back",
    "go_forward",
    "stop",
)
"""The 12 action names, in the order of the action language's documentation."""

_MAX_ID = 2**32 - 1


class ActionError(ValueError):
    """An argument that cannot be written as (part of) an action."""


# --- argument checks ---------------------------------------------------------------------


def _index(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{what} must be an int, got {value!r}")
    if not 0 <= value <= _MAX_ID:
        raise ActionError(f"{what} must be between 0 and {_MAX_ID}, got {value}")
    return value


def _one_line(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ActionError(f"{what} must be a str, got {type(value).__name__}")
    if "\n" in value or "\r" in value:
        raise ActionError(f"{what} must be one line; got a line break in {value!r}")
    return value


# --- builders --------------------------------------------------------------------------------


def click(element_id: int) -> str:
    """``click [id]``: click the element with this id."""
    return f"click [{_index(element_id, 'element id')}]"


def hover(element_id: int) -> str:
    """``hover [id]``: move the pointer over the element."""
    return f"hover [{_index(element_id, 'element id')}]"


def type_text(element_id: int, text: str, enter: bool = True) -> str:
    """``type [id] [text] [1|0]``: replace the field's content with ``text``, then press
    Enter when ``enter`` is true (the default, as in the action language)."""
    element_id = _index(element_id, "element id")
    text = _one_line(text, "text")
    if not isinstance(enter, bool):
        raise ActionError(f"enter must be a bool, got {enter!r}")
    return f"type [{element_id}] [{text}] [{1 if enter else 0}]"


_MODIFIERS = {
    "control": "Control",
    "ctrl": "Control",
    "shift": "Shift",
    "alt": "Alt",
    "option": "Alt",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
}
_NAMED_KEYS = {
    name.lower(): name
    for name in (
        "Enter Tab Escape Backspace Delete ArrowUp ArrowDown ArrowLeft ArrowRight Home "
        "End PageUp PageDown Space Insert F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12"
    ).split()
}
_NAMED_KEYS.update({"esc": "Escape", "return": "Enter", "del": "Delete"})


def _key_parts(combo: str) -> List[str]:
    """``Control+Shift+a`` → ``["Control", "Shift", "a"]``. A ``+`` that starts a part is
    the plus key itself (``+``, ``Shift++``)."""
    parts: List[str] = []
    current = ""
    for ch in combo:
        if ch.isspace():
            continue
        if ch == "+" and current:
            parts.append(current)
            current = ""
            continue
        current += ch
    if current or parts:
        parts.append(current)
    return parts


def press(key_comb: str) -> str:
    """``press [key_comb]``: a key or combination, e.g. ``Enter``, ``Control+v``,
    ``Meta+Shift+ArrowLeft``. Modifiers: Control, Shift, Alt, Meta (aliases Ctrl,
    Option, Cmd, Command); the final key is one character or a named key (Enter, Tab,
    Escape, Backspace, Delete, arrows, Home, End, PageUp, PageDown, Space, Insert,
    F1-F12). Aliases are written in their canonical spelling."""
    key_comb = _one_line(key_comb, "key combination")
    parts = _key_parts(key_comb)
    if not parts:
        raise ActionError("key combination is empty")
    *mods, last = parts
    canonical: List[str] = []
    for mod in mods:
        name = _MODIFIERS.get(mod.lower())
        if name is None:
            raise ActionError(f"unknown modifier {mod!r} in {key_comb!r}")
        if name in canonical:
            raise ActionError(f"modifier {name} appears twice in {key_comb!r}")
        canonical.append(name)
    if not last:
        raise ActionError(f"{key_comb!r} ends in '+' with no key after it")
    if len(last) == 1:
        key = last
    elif last.lower() in _NAMED_KEYS:
        key = _NAMED_KEYS[last.lower()]
    elif last.lower() in _MODIFIERS:
        raise ActionError(f"{key_comb!r} ends in a modifier; it must end in a key")
    else:
        raise ActionError(f"unknown key {last!r} in {key_comb!r}")
    return f"press [{'+'.join(canonical + [key])}]"


def scroll(direction: str = "down") -> str:
    """``scroll [up|down]``: scroll the page by one viewport height."""
    if not isinstance(direction, str) or direction.strip().lower() not in ("up", "down"):
        raise ActionError(f"direction must be 'up' or 'down', got {direction!r}")
    return f"scroll [{direction.strip().lower()}]"


def new_tab() -> str:
    """``new_tab``: open an empty tab and make it current."""
    return "new_tab"


def tab_focus(index: int) -> str:
    """``tab_focus [index]``: switch to the tab at this position (from 0) of
    ``observation.tabs``."""
    return f"tab_focus [{_index(index, 'tab index')}]"


def close_tab() -> str:
    """``close_tab``: close the current tab."""
    return "close_tab"


def goto(url: str) -> str:
    """``goto [url]``: load a URL in the current tab (hopbench only follows http(s)
    URLs; in a fenced run only those of the task's sites)."""
    url = _one_line(url, "url").strip()
    if not url:
        raise ActionError("url is empty")
    return f"goto [{url}]"


def go_back() -> str:
    """``go_back``: the browser's Back button."""
    return "go_back"


def go_forward() -> str:
    """``go_forward``: the browser's Forward button."""
    return "go_forward"


def stop(answer: str) -> str:
    """``stop [answer]``: end the run with this answer; ``stop("N/A")`` when the task
    cannot be done. Brackets inside the answer are fine (the answer runs to the last
    ``]``); surrounding whitespace is dropped, as hopbench drops it."""
    return f"stop [{_one_line(answer, 'answer').strip()}]"


# --- reading the observation text -----------------------------------------------------


class Element(NamedTuple):
    """One element line of the observation: ``[12] link 'Tokyo Tower'`` →
    ``Element(12, "link", "Tokyo Tower")``. ``name`` is "" for a line without one."""

    id: int
    role: str
    name: str


# `[12] role` then, optionally, the name as Python's repr writes it: single quotes, or
# double quotes when the name holds a single quote; backslash escapes inside.
_ELEMENT_LINE = re.compile(
    r"""\[(\d+)\][ ]+(\S+)(?:[ ]+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))?"""
)


def _unquote(quoted: str) -> str:
    try:
        value = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return quoted[1:-1]
    return value if isinstance(value, str) else quoted[1:-1]


def _text_of(observation: Union[str, Any]) -> str:
    """Accepts the text or anything with a ``.text`` (an ``Observation``)."""
    if isinstance(observation, str):
        return observation
    text = getattr(observation, "text", None)
    if not isinstance(text, str):
        raise TypeError(
            f"expected the observation text or an Observation, got {type(observation).__name__}"
        )
    return text


def elements(observation_text: Union[str, Any]) -> List[Element]:
    """Every element line of the observation, in page order, as ``Element(id, role,
    name)``. Works on both formats: indentation is ignored, names are unquoted (``'a'``
    or ``"it's"``, with Python-style escapes such as ``\\xa0``). The tabs line, text
    lines of the compact format and blank lines are not elements."""
    found: List[Element] = []
    for line in _text_of(observation_text).splitlines():
        match = _ELEMENT_LINE.match(line.lstrip(" \t"))
        if match is None:
            continue
        element_id, role, quoted = match.groups()
        found.append(Element(int(element_id), role, _unquote(quoted) if quoted else ""))
    return found


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_element(
    observation_text: Union[str, Any], name: str, role: Optional[str] = None
) -> Optional[int]:
    """The id of the first element named ``name`` (and of role ``role`` when given):
    an exact name match first, then a case-insensitive one (whitespace runs counted as
    one space). ``None`` when there is none."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    candidates = [
        e for e in elements(observation_text) if role is None or e.role == role
    ]
    for element in candidates:
        if element.name == name:
            return element.id
    wanted = _fold(name)
    for element in candidates:
        if _fold(element.name) == wanted:
            return element.id
    return None


def find_link(observation_text: Union[str, Any], name: str) -> Optional[int]:
    """The id of the first link called ``name``: exact name first, then a
    case-insensitive match. ``None`` when the page shows no such link."""
    return find_element(observation_text, name, role="link")
