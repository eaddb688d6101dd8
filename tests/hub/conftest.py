"""The classroom JupyterHub test (``make test-hub``) starts a hub, a proxy and two students'
servers: it runs only when PANGAEA_HUB_TESTS=1 (``make test-hub`` sets it and installs
JupyterHub, the idle culler and configurable-http-proxy first), never in a plain ``pytest``
or ``make test``."""

import os

if os.environ.get("PANGAEA_HUB_TESTS") != "1":
    collect_ignore_glob = ["test_*.py"]


def pytest_configure(config):
    # requests' responses read in full and dropped close their sockets when collected; on a
    # busy machine that can happen mid-test, which is not a finding of these tests
    config.addinivalue_line("filterwarnings", "ignore::ResourceWarning")
