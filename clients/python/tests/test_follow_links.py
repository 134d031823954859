from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from support import EXAMPLES, MMINA_TEXT, load_example, post, step_dict

from hopbench_agent import StepReply, parse_request

follow_links = load_example("follow_links")

TASK = "sb-06-lumen-hybrid-colour"
PLAN_JSON = {TASK: {"links": ["Our fleet", "Lumen Hybrid"], "answer": "green"}}
PLANS = follow_links.parse_plans(PLAN_JSON)

START_PAGE = (
    "Tab 0 (current): Northwind Car Rental\n\n"
    "[1] RootWebArea 'Northwind Car Rental' focused: True\n"
    "\t[5] link 'Northwind Car Rental'\n"
    "\t[6] link 'Our fleet'\n"
    "\t[7] link 'Locations'\n"
)
BOTTOM_OF_NOWHERE = (
    "Tab 0 (current): Locations\n\n"
    "[1] RootWebArea 'Locations' focused: True\n"
    "\t[30] link 'Tokyo'\n"
    "\t[31] link 'Seoul'\n"
)


def past(step, action, error=None, note=None, url="http://127.0.0.1:8603/"):
    return {"step": step, "url": url, "action": action, "error": error, "note": note}


def request(text, history=(), task_id=TASK):
    body = step_dict(history=list(history), step=len(history) + 1)
    body["task"]["id"] = task_id
    body["observation"]["text"] = text
    return parse_request(body)


def decide(text, history=(), task_id=TASK, patience=3) -> StepReply:
    return follow_links.decide(request(text, history, task_id), PLANS, patience)


def test_first_step_clicks_the_first_link():
    reply = decide(START_PAGE)
    assert reply.action == "click [6]"
    assert reply.reasoning == "following the plan: link 'Our fleet'"


def test_second_link_after_the_history_shows_the_first_clicked():
    reply = decide(MMINA_TEXT, [past(1, "click [6]")])
    assert reply.action == "click [15]"
    assert reply.reasoning == "following the plan: link 'Lumen Hybrid'"


def test_a_failed_click_does_not_count_as_progress():
    history = [past(1, "click [6]", error="element 6 no longer exists; observe the page again")]
    assert decide(START_PAGE, history).action == "click [6]"


def test_scrolls_when_the_link_is_absent_then_gives_up():
    history = [past(1, "click [6]")]
    first = decide(BOTTOM_OF_NOWHERE, history)
    assert first.action == "scroll [down]"
    assert "'Lumen Hybrid' is not on the page" in first.reasoning
    history += [past(2, "scroll [down]"), past(3, "scroll [down]")]
    assert decide(BOTTOM_OF_NOWHERE, history).action == "scroll [down]"
    history.append(past(4, "scroll [down]"))
    gave_up = decide(BOTTOM_OF_NOWHERE, history)
    assert gave_up.action == "stop [N/A]"
    assert "giving up" in gave_up.reasoning


def test_link_found_after_scrolling_is_clicked():
    history = [past(1, "click [6]"), past(2, "scroll [down]")]
    assert decide(MMINA_TEXT, history).action == "click [15]"


def test_stops_with_the_answer_after_the_last_link():
    history = [past(1, "click [6]"), past(2, "scroll [down]"), past(3, "click [15]")]
    reply = decide(MMINA_TEXT, history)
    assert reply.action == "stop [green]"
    assert "green" in reply.reasoning


def test_unknown_task_stops_with_na():
    reply = decide(START_PAGE, task_id="sb-99-unplanned")
    assert reply.action == "stop [N/A]"
    assert reply.reasoning == "the plan has no entry for task 'sb-99-unplanned'"


def test_same_request_same_reply():
    # Stateless: a retried request gets the same answer.
    history = [past(1, "click [6]")]
    assert decide(MMINA_TEXT, history) == decide(MMINA_TEXT, history)


def test_plan_file_is_checked():
    with pytest.raises(ValueError, match="links"):
        follow_links.parse_plans({"t": {"links": "Our fleet", "answer": "x"}})
    with pytest.raises(ValueError, match="answer"):
        follow_links.parse_plans({"t": {"links": ["a"]}})
    with pytest.raises(ValueError):
        follow_links.parse_plans(["t"])


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_the_script_serves_over_http_with_a_key(tmp_path):
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps(PLAN_JSON))
    env = dict(os.environ, FOLLOW_KEY="k-123")
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "follow_links.py"), "--plan", str(plans),
         "--port", "0", "--key-env", "FOLLOW_KEY"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        line = proc.stdout.readline().strip()
        expected = "hopbench agent follow-links 0.1.0 listening on http://127.0.0.1:"
        assert line.startswith(expected), (
            line, proc.stderr.read() if proc.poll() is not None else "")
        url = line.rsplit(" ", 1)[1]
        auth = {"authorization": "Bearer k-123"}
        assert post(url, {"protocol": 1, "kind": "hello"})[0] == 401
        assert post(url, {"protocol": 1, "kind": "hello"}, auth) == (
            200, {"protocol": 1, "name": "follow-links", "version": "0.1.0"})
        body = step_dict(history=[])
        status, reply = post(url, body, auth)
        assert status == 200
        assert reply == {"action": "click [6]",
                         "reasoning": "following the plan: link 'Our fleet'"}
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_the_script_refuses_a_missing_key_variable(tmp_path):
    plans = tmp_path / "plans.json"
    plans.write_text("{}")
    env = {k: v for k, v in os.environ.items() if k != "NO_SUCH_KEY_VAR"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "follow_links.py"), "--plan", str(plans),
         "--port", "0", "--key-env", "NO_SUCH_KEY_VAR"],
        capture_output=True, text=True, env=env, timeout=30,
    )
    assert done.returncode == 2
    assert "NO_SUCH_KEY_VAR" in done.stderr
