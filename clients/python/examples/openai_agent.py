"""A hopbench agent backed by any OpenAI-compatible chat completions server.

    python examples/openai_agent.py --model-base-url http://127.0.0.1:8080/v1 \\
        --model NAME --api-key-env OPENAI_API_KEY --port 8700

Each step it sends the model its own short prompt (the task, the step budget, the
past steps, the feedback on the last step, memory when hopbench sends it, the tabs and
the observation text) and asks for one action on the last line. The action is the
last line of the reply that holds one, after code fences, backticks, bold marks and an
``Action:`` label are removed; text after an id action's ``]`` is dropped. A reply
without any action is passed on as its last line, so hopbench reports it as unreadable
and the next request's ``feedback`` tells the model.

With ``--vision`` the observation's images (``text+images``) and screenshot
(``text+screenshot``, ``som``) go along as ``image_url`` data URLs; without it they
are left out. Uses only the standard library. A failed model call raises, which the
server answers with 500, and hopbench retries it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from hopbench_agent import StepReply, StepRequest, Usage, serve

NAME = "openai-agent"
VERSION = "0.1.0"

SYSTEM_PROMPT = """\
You operate a web browser to complete a task. Each step you see the current page as
an accessibility tree: one element per line, "[id] role 'name'", where id is the number
to use in actions. You choose exactly ONE action per step, from this list:

click [id]              click the element
hover [id]              move the pointer over the element
type [id] [text] [1]    replace the field's text and press Enter ([0]: no Enter)
press [key_comb]        press keys, e.g. press [Control+v] or press [Enter]
scroll [down]           scroll the page (or scroll [up])
new_tab                 open a new tab
tab_focus [index]       switch to the tab at this index (from 0)
close_tab               close the current tab
goto [url]              open a URL in the current tab
go_back                 go back one page
go_forward              go forward one page
stop [answer]           finish with your answer; stop [N/A] if it cannot be done

A task may need several websites in a row: finish one part, then move on. Think in a
few short sentences, then write the action alone on the last line, for example:
click [12]"""


class ModelError(RuntimeError):
    """The model server could not be reached or gave an unusable reply."""


@dataclass
class ModelConfig:
    base_url: str
    model: str
    api_key: Optional[str] = None
    vision: bool = False
    temperature: Optional[float] = 0.0
    max_tokens: Optional[int] = None
    timeout: float = 120.0


# --- the prompt --------------------------------------------------------------------------


def _past_step(past: Any) -> str:
    if past.action is None:
        line = f"{past.step}. (no action) on {past.url}"
    else:
        line = f"{past.step}. {past.action} on {past.url}"
    if past.error:
        line += f" -- failed: {past.error}"
    if past.note:
        line += f" -- {past.note}"
    return line


def build_prompt(request: StepRequest) -> str:
    """The user message's text for one step."""
    task = request.task
    obs = request.observation
    parts: List[str] = []
    if request.memory:
        parts.append(f"Notes from past runs:\n{request.memory.strip()}")
    parts.append(f"Task: {task.intent.strip()}")
    if task.sites:
        parts.append("Websites: " + "; ".join(f"{s.label} ({s.url})" for s in task.sites))
    if any(h.description for h in task.hops):
        parts.append(
            f"The task has {len(task.hops)} parts, in order:\n"
            + "\n".join(
                f"{i}. {h.description or '(not described)'}"
                for i, h in enumerate(task.hops, 1)
            )
        )
    parts.append(f"This is step {request.step} of at most {request.max_steps}.")
    if request.history:
        parts.append("Steps so far:\n" + "\n".join(_past_step(p) for p in request.history))
    if request.feedback:
        parts.append(f"Your last step did nothing: {request.feedback.strip()}")
    if obs.tabs:
        tabs = " | ".join(
            f"{i}: {t.title}" + (" (current)" if t.current else "") for i, t in enumerate(obs.tabs)
        )
        parts.append(f"Tabs: {tabs}")
    parts.append(f"Current URL: {obs.url}")
    parts.append(f"Page:\n{obs.text}")
    parts.append("Which action next? Write it alone on the last line.")
    return "\n\n".join(parts)


def build_messages(request: StepRequest, vision: bool = False) -> List[Dict[str, Any]]:
    """The chat messages for one step; images as ``image_url`` parts with ``vision``."""
    text = build_prompt(request)
    obs = request.observation
    pictures = vision and (obs.images or obs.screenshot is not None)
    if not pictures:
        user: Any = text
    else:
        user = [{"type": "text", "text": text}]
        for image in obs.images:
            user.append({"type": "text", "text": f"Image of element [{image.id}]:"})
            user.append({"type": "image_url", "image_url": {"url": image.data_url}})
        if obs.screenshot is not None:
            label = (
                "Screenshot, elements boxed and numbered by id:"
                if obs.mode == "som"
                else "Screenshot of the page:"
            )
            user.append({"type": "text", "text": label})
            user.append({"type": "image_url", "image_url": {"url": obs.screenshot.data_url}})
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user},
    ]


# --- reading the model's reply -----------------------------------------------------------

_ID_ACTIONS = ("click", "hover", "scroll", "tab_focus")
_TEXT_ACTIONS = ("type", "press", "goto", "stop")
_BARE_ACTIONS = ("new_tab", "close_tab", "go_back", "go_forward")
_WITH_ARGS = re.compile(
    r"(" + "|".join(_ID_ACTIONS + _TEXT_ACTIONS) + r")\s*\[", re.IGNORECASE
)
_BARE = re.compile(
    r"(" + "|".join(_BARE_ACTIONS) + r")\s*(\[\s*\])?\s*[.!]?$", re.IGNORECASE
)
_LABEL = re.compile(r"^(?:final\s+|next\s+)?action\s*[:=\-]\s*", re.IGNORECASE)


def _as_action(line: str) -> Optional[str]:
    line = line.strip().strip("`*").strip()
    line = line.lstrip("->").strip()
    line = _LABEL.sub("", line).strip().strip("`*").strip()
    match = _WITH_ARGS.match(line)
    if match:
        name = match.group(1).lower()
        close = line.find("]") if name in _ID_ACTIONS else line.rfind("]")
        if close == -1:
            return None
        return line[: close + 1]
    if _BARE.match(line):
        return line.rstrip(".!").strip()
    return None


def extract_action(text: str) -> Optional[str]:
    """The last action in a model's reply (fenced or not), or None when it has none."""
    for line in reversed(text.splitlines()):
        found = _as_action(line)
        if found is not None:
            return found
    return None


def _message_text(reply: Dict[str, Any]) -> str:
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ModelError(
            f"the model's reply has no choices[0].message: {str(reply)[:300]}"
        ) from None
    if content is None:
        return ""
    if isinstance(content, list):  # content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


def _usage(reply: Dict[str, Any]) -> Optional[Usage]:
    usage = reply.get("usage")
    if not isinstance(usage, dict):
        return None

    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    return Usage(input_tokens=count("prompt_tokens"), output_tokens=count("completion_tokens"))


# --- calling the model ----------------------------------------------------------------------


def call_model(config: ModelConfig, messages: List[Dict[str, Any]]) -> Dict[str, Any]:
    """POSTs to ``{base_url}/chat/completions`` and returns the decoded reply."""
    body: Dict[str, Any] = {"model": config.model, "messages": messages}
    if config.temperature is not None:
        body["temperature"] = config.temperature
    if config.max_tokens is not None:
        body["max_tokens"] = config.max_tokens
    headers = {"content-type": "application/json"}
    if config.api_key:
        headers["authorization"] = f"Bearer {config.api_key}"
    url = config.base_url.rstrip("/") + "/chat/completions"
    http_request = urllib.request.Request(
        url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(http_request, timeout=config.timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as error:
        detail = error.read()[:500].decode("utf-8", "replace")
        raise ModelError(f"{url} answered {error.code}: {detail}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ModelError(f"{url} could not be reached: {error}") from None
    try:
        decoded = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ModelError(f"{url} did not answer JSON: {raw[:300]!r}") from None
    if not isinstance(decoded, dict):
        raise ModelError(f"{url} answered {type(decoded).__name__}, not an object")
    return decoded


def make_act(config: ModelConfig) -> Callable[[StepRequest], StepReply]:
    def act(request: StepRequest) -> StepReply:
        reply = call_model(config, build_messages(request, vision=config.vision))
        text = _message_text(reply)
        action = extract_action(text)
        if action is None:
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            action = lines[-1] if lines else "(the model gave no action)"
        return StepReply(action=action, reasoning=text or None, usage=_usage(reply))

    return act


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description="A hopbench agent that asks an OpenAI-compatible chat completions server."
    )
    parser.add_argument("--model-base-url", default="http://127.0.0.1:8080/v1",
                        help="the server's base URL, up to /v1 (default http://127.0.0.1:8080/v1)")
    parser.add_argument("--model", required=True, help="the model name the server expects")
    parser.add_argument("--api-key-env", metavar="VAR",
                        help="environment variable holding the model server's key (optional)")
    parser.add_argument("--vision", action="store_true",
                        help="send the observation's images and screenshot to the model")
    parser.add_argument("--temperature", type=float, default=0.0, help="default 0")
    parser.add_argument("--max-tokens", type=int, default=None, help="cap on the reply's tokens")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds to wait for the model (default 120)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8700,
                        help="port (default 8700; 0 = any free one)")
    parser.add_argument("--key-env", metavar="VAR",
                        help="require 'authorization: Bearer <key>' from hopbench, the key read "
                             "from this environment variable")
    parser.add_argument("--name", default=None,
                        help=f"the name reports show (default {NAME}/<model>)")
    parser.add_argument("--log", action="store_true", help="log each HTTP request to stderr")
    args = parser.parse_args(argv)

    api_key = None
    if args.api_key_env:
        api_key = os.environ.get(args.api_key_env)
        if not api_key:
            parser.error(f"--api-key-env {args.api_key_env}: the environment variable is not set")
    key = None
    if args.key_env:
        key = os.environ.get(args.key_env)
        if not key:
            parser.error(f"--key-env {args.key_env}: the environment variable is not set")
    config = ModelConfig(
        base_url=args.model_base_url,
        model=args.model,
        api_key=api_key,
        vision=args.vision,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        timeout=args.timeout,
    )
    serve(make_act(config), name=args.name or f"{NAME}/{args.model}", version=VERSION,
          host=args.host, port=args.port, key=key, log=args.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
