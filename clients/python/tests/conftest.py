"""Fixtures: a full step request, and a factory for agent servers that are always
closed after the test."""

from __future__ import annotations

from typing import Any, Dict

import pytest
from support import step_dict

from hopbench_agent import make_server


@pytest.fixture
def step_body() -> Dict[str, Any]:
    return step_dict()


@pytest.fixture
def agent_server():
    """Starts agent servers on 127.0.0.1 and a free port; every one is closed after
    the test, whatever happened."""
    started = []

    def start(act, **options: Any):
        options.setdefault("name", "test-agent")
        options.setdefault("version", "9.9.9")
        server = make_server(act, **options)
        started.append(server)
        server.serve_in_background()
        return server

    yield start
    for server in started:
        server.close()
