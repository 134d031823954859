from __future__ import annotations

import importlib.metadata
import importlib.resources
import re
from pathlib import Path

from support import step_dict

import hopbench_agent
from hopbench_agent import parse_request

README = Path(__file__).resolve().parent.parent / "README.md"


def test_version_and_protocol():
    assert hopbench_agent.__version__ == importlib.metadata.version("hopbench-agent") == "0.1.0"
    assert hopbench_agent.PROTOCOL_VERSION == 1


def test_public_api_is_exported_and_typed():
    for name in hopbench_agent.__all__:
        assert hasattr(hopbench_agent, name), name
    assert importlib.resources.files("hopbench_agent").joinpath("py.typed").is_file()


def test_no_runtime_dependencies():
    requires = importlib.metadata.requires("hopbench-agent") or []
    assert all("extra ==" in r for r in requires), requires


def test_readme_minimal_agent_runs(monkeypatch):
    text = README.read_text(encoding="utf-8")
    section = text.split("## A minimal agent", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    served = {}
    monkeypatch.setattr(hopbench_agent, "serve", lambda act, **kw: served.update(act=act, **kw))
    exec(compile(code, str(README), "exec"), {})
    assert served["name"] == "my-agent" and served["port"] == 8700
    act = served["act"]
    # The sample page has the "Our fleet" link, id 6.
    reply = act(parse_request(step_dict()))
    assert reply.action == "click [6]"
    body = step_dict()
    body["observation"]["text"] = "Tab 0 (current): x\n\n[1] RootWebArea 'x'\n"
    assert act(parse_request(body)) == "scroll [down]"
