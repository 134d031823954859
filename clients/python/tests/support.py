"""Test data and helpers: realistic requests and observation texts, an HTTP client
helper and a loader for the example scripts."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"

# An observation in the mmina format: a tabs line, a blank line, then element lines
# indented by tabs, names as Python's repr writes them.
MMINA_TEXT = (
    "Tab 0 (current): Fleet - Northwind Car Rental | Tab 1: Tokyo Tower - Wiki\n"
    "\n"
    "[1] RootWebArea 'Fleet - Northwind Car Rental' focused: True\n"
    "\t[4] navigation 'Main'\n"
    "\t\t[5] link 'Northwind Car Rental' url: http://127.0.0.1:8603/\n"
    "\t\t[6] link 'Our fleet'\n"
    "\t\t[7] link 'Locations'\n"
    "\t\t[8] searchbox 'Search cars' required: False\n"
    "\t\t[9] button 'Search'\n"
    "\t[10] main ''\n"
    "\t\t[11] heading 'Our fleet'\n"
    "\t\t[12] combobox 'Sort by' hasPopup: menu expanded: False\n"
    "\t\t[14] image 'Lumen Hybrid in green' url: http://127.0.0.1:8603/img/lumen.png\n"
    "\t\t[15] link 'Lumen Hybrid'\n"
    "\t\t[16] StaticText '38 €\\xa0/ day'\n"
    "\t\t[17] link \"Driver's guide\"\n"
    "\t\t[18] link 'Arden Five'\n"
    "\t\t[19] textbox 'Promo code'\n"
    "\t\t[20] button 'Book \\'Arden Five\\''\n"
)

# The same kind of page in the compact format: no indentation, no RootWebArea, text
# as bare lines (one starting with a bracket is escaped), images as `[id] image`.
COMPACT_TEXT = (
    "Tab 0 (current): Fleet - Northwind Car Rental\n"
    "\n"
    "[6] link 'Our fleet'\n"
    "[7] link 'Locations'\n"
    "[8] searchbox 'Search cars'\n"
    "Compact cars from 36 € a day\n"
    "\\[1] is the footnote marker, not an element\n"
    "[15] link 'Lumen Hybrid'\n"
    "[14] image\n"
    "38 € / day\n"
    "[18] link 'ARDEN FIVE'\n"
    "[19] textbox 'Promo code'\n"
)


def step_dict(**changes: Any) -> Dict[str, Any]:
    """A full step request as hopbench sends it; keyword arguments replace top-level
    fields."""
    body: Dict[str, Any] = {
        "protocol": 1,
        "kind": "step",
        "step": 3,
        "max_steps": 30,
        "task": {
            "id": "sb-06-lumen-hybrid-colour",
            "intent": (
                "What colour is the Lumen Hybrid in Northwind's fleet? Answer with the colour."
            ),
            "start_urls": ["http://127.0.0.1:8603/"],
            "sites": [{"label": "Northwind Car Rental", "url": "http://127.0.0.1:8603/"}],
            "hops": [{"description": "Reach the fleet page"}, {"description": None}],
        },
        "observation": {
            "format": "mmina",
            "mode": "text+images",
            "url": "http://127.0.0.1:8603/fleet",
            "text": MMINA_TEXT,
            "tabs": [
                {"title": "Fleet - Northwind Car Rental", "current": True},
                {"title": "Tokyo Tower - Wiki", "current": False},
            ],
            "images": [{"id": 14, "mime": "image/png", "base64": "iVBORw0KGgo="}],
            "screenshot": None,
        },
        "feedback": None,
        "history": [
            {"step": 1, "url": "http://127.0.0.1:8603/", "action": "click [6]",
             "error": None, "note": None},
            {"step": 2, "url": "http://127.0.0.1:8603/fleet", "action": None,
             "error": None, "note": "malformed reply: no action"},
        ],
        "memory": None,
    }
    body.update(copy.deepcopy(changes))
    return body


def post(
    url: str,
    body: Any,
    headers: Optional[Dict[str, str]] = None,
    *,
    raw: Optional[bytes] = None,
    method: str = "POST",
) -> Tuple[int, Any]:
    """Sends one request; returns (status, decoded JSON body) for 2xx and errors alike."""
    data = raw if raw is not None else json.dumps(body).encode("utf-8")
    all_headers = {"content-type": "application/json"}
    all_headers.update(headers or {})
    request = urllib.request.Request(
        url, data=data if method == "POST" else None, headers=all_headers, method=method
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read().decode("utf-8"))


def load_example(name: str):
    """Imports examples/<name>.py as a module."""
    module_name = f"hopbench_example_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
