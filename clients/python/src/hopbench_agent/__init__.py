"""Bring your own agent to hopbench: the agent protocol (version 1) in Python.

Each step of a run, hopbench POSTs one JSON request to your agent's URL and your agent
answers with one action. A minimal agent::

    from hopbench_agent import StepRequest, StepReply, serve, stop, find_link, click

    def act(request: StepRequest):  # returns a StepReply or the action string
        link = find_link(request.observation.text, "Our fleet")
        if link is not None:
            return StepReply(click(link), reasoning="the fleet page lists the cars")
        return stop("N/A")

    serve(act, name="my-agent", version="0.1.0", port=8700)

Stdlib only. The full contract is docs/agent-protocol.md in the hopbench repository.
"""

from .actions import (
    ACTION_NAMES,
    ActionError,
    Element,
    click,
    close_tab,
    elements,
    find_element,
    find_link,
    go_back,
    go_forward,
    goto,
    hover,
    new_tab,
    press,
    scroll,
    stop,
    tab_focus,
    type_text,
)
from .protocol import (
    PROTOCOL_VERSION,
    HelloReply,
    HelloRequest,
    HopBrief,
    Image,
    Observation,
    PastStep,
    Picture,
    ProtocolError,
    Request,
    Site,
    StepReply,
    StepRequest,
    Tab,
    TaskBrief,
    Usage,
    parse_request,
)
from .server import MAX_BODY_BYTES, Act, AgentServer, make_server, serve

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "PROTOCOL_VERSION",
    # protocol
    "ProtocolError",
    "Request",
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
    "parse_request",
    # actions
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
    # server
    "Act",
    "AgentServer",
    "MAX_BODY_BYTES",
    "make_server",
    "serve",
]
