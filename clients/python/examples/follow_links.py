"""A scripted hopbench agent: it follows a fixed plan of links, then answers.

    python examples/follow_links.py --plan plans.json --port 8700

plans.json maps a task id to the link names to click, in order, and the answer::

    {"sb-06-lumen-hybrid-colour": {"links": ["Our fleet", "Lumen Hybrid"], "answer": "green"}}

Each step:

1. Progress is read from the request alone (no state is kept between requests, so a
   request hopbench retries gets the same reply): the number of plan links already
   followed is the number of ``click`` actions in ``history`` that have no ``error``.
   This agent only ever clicks plan links, so each such click is one link done.
2. With links left, the next one is looked up by name in the observation
   (``find_link``: exact name first, then case-insensitive). Found: ``click [id]``.
   Not found: ``scroll [down]``. The steps since the last successful click that made
   no progress (scrolls, failed clicks, steps that did nothing) are counted; once
   there are ``--patience`` of them (default 3) the agent gives up: ``stop [N/A]``.
3. With every link followed: ``stop [answer]``.
4. A task id the plan does not have: ``stop [N/A]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

from hopbench_agent import StepReply, StepRequest, click, find_link, scroll, serve, stop

NAME = "follow-links"
VERSION = "0.1.0"
DEFAULT_PATIENCE = 3

_CLICK = re.compile(r"\s*click\s*\[", re.IGNORECASE)


@dataclass(frozen=True)
class Plan:
    links: List[str]
    answer: str


def parse_plans(data: object) -> Dict[str, Plan]:
    """Checks the plans file's JSON: ``{task id: {"links": [str], "answer": str}}``."""
    if not isinstance(data, dict):
        raise ValueError("the plans file must hold a JSON object mapping task ids to plans")
    plans: Dict[str, Plan] = {}
    for task_id, entry in data.items():
        if not isinstance(entry, dict):
            raise ValueError(f"plan {task_id!r}: expected an object with links and answer")
        links = entry.get("links")
        answer = entry.get("answer")
        if not isinstance(links, list) or not all(isinstance(x, str) and x for x in links):
            raise ValueError(f"plan {task_id!r}: links must be a list of link names")
        if not isinstance(answer, str):
            raise ValueError(f"plan {task_id!r}: answer must be a string")
        plans[task_id] = Plan(links=list(links), answer=answer)
    return plans


def load_plans(path: str) -> Dict[str, Plan]:
    with open(path, encoding="utf-8") as f:
        return parse_plans(json.load(f))


@dataclass(frozen=True)
class Progress:
    done: int
    """Plan links already followed: clicks in the history without an error."""
    misses: int
    """Steps since the last successful click that made no progress."""


def progress(request: StepRequest) -> Progress:
    done = misses = 0
    for past in request.history:
        if past.action is not None and _CLICK.match(past.action) and past.error is None:
            done += 1
            misses = 0
        else:
            misses += 1
    return Progress(done=done, misses=misses)


def decide(
    request: StepRequest, plans: Dict[str, Plan], patience: int = DEFAULT_PATIENCE
) -> StepReply:
    """The step's action, from the request and the plans alone."""
    plan = plans.get(request.task.id)
    if plan is None:
        return StepReply(
            stop("N/A"), reasoning=f"the plan has no entry for task {request.task.id!r}"
        )
    state = progress(request)
    if state.done >= len(plan.links):
        return StepReply(
            stop(plan.answer),
            reasoning=f"followed all {len(plan.links)} links of the plan; "
            f"answering {plan.answer!r}",
        )
    link = plan.links[state.done]
    element = find_link(request.observation.text, link)
    if element is not None:
        return StepReply(click(element), reasoning=f"following the plan: link {link!r}")
    if state.misses >= patience:
        return StepReply(
            stop("N/A"),
            reasoning=f"link {link!r} is not on the page after {state.misses} steps "
            "without progress; giving up",
        )
    return StepReply(
        scroll("down"),
        reasoning=f"link {link!r} is not on the page; scrolling down "
        f"({state.misses + 1} of {patience})",
    )


def make_act(
    plans: Dict[str, Plan], patience: int = DEFAULT_PATIENCE, record: Optional[str] = None
) -> Callable[[StepRequest], StepReply]:
    """The agent's ``act``; with ``record``, each request is also appended to that file
    as one JSON line, exactly as it arrived (to see what hopbench sends)."""
    def act(request: StepRequest) -> StepReply:
        if record is not None:
            with open(record, "a", encoding="utf-8") as f:
                f.write(json.dumps(request.raw) + "\n")
        return decide(request, plans, patience)

    return act


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description="A scripted hopbench agent that follows a plan of links."
    )
    parser.add_argument("--plan", required=True, help="JSON file: task id -> {links, answer}")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8700,
                        help="port (default 8700; 0 = any free one)")
    parser.add_argument("--key-env", metavar="VAR",
                        help="require 'authorization: Bearer <key>', the key read from this "
                             "environment variable")
    parser.add_argument("--name", default=NAME, help=f"the name reports show (default {NAME})")
    parser.add_argument("--patience", type=int, default=DEFAULT_PATIENCE,
                        help="steps without progress before giving up on a link (default 3)")
    parser.add_argument("--log", action="store_true", help="log each HTTP request to stderr")
    parser.add_argument("--record", metavar="FILE",
                        help="append each step request, as received, to FILE (JSON lines)")
    args = parser.parse_args(argv)

    try:
        plans = load_plans(args.plan)
    except (OSError, ValueError) as error:
        parser.error(f"--plan {args.plan}: {error}")
    key = None
    if args.key_env:
        key = os.environ.get(args.key_env)
        if not key:
            parser.error(f"--key-env {args.key_env}: the environment variable is not set")
    if args.patience < 0:
        parser.error("--patience must be 0 or more")
    serve(make_act(plans, args.patience, args.record), name=args.name, version=VERSION,
          host=args.host, port=args.port, key=key, log=args.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
