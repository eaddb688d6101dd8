"""The activity that keeps a student's server on the classroom hub running.

A Jupyter server tells the hub when it was last used, and the hub's idle culler stops servers
unused for a while.  Out of the box every request counts, and an open JupyterLab tab asks the
server for its kernels, sessions and files every few seconds, so a tab left open in a
forgotten window kept its server (and its memory) forever.  With this server extension only
what a person does counts: running code or clicking a widget (messages to and from a kernel)
and typing in a terminal.  Kernels idle for a while are stopped by the server's kernel culler
(``jupyterhub_config.py`` sets it), so an open tab nobody touches ends in a stopped server.

Enabled by the hub in the students' environment only
(``etc/jupyter/jupyter_server_config.d/pangaea_lab_classroom.json``).
"""

from __future__ import annotations

from datetime import datetime


def _jupyter_server_extension_points() -> list[dict]:
    return [{"module": "pangaea_lab.classroom.activity"}]


def people_activity(settings: dict) -> datetime:
    """When the server was last used by a person: started, kernel messages, terminal input
    (requests that only read the page's state, such as a tab's polling, do not count)."""
    sources = [settings["started"], settings["kernel_manager"].last_kernel_activity]
    if settings.get("terminal_last_activity"):
        sources.append(settings["terminal_last_activity"])
    return max(sources)


def _load_jupyter_server_extension(serverapp) -> None:
    web_app = serverapp.web_app
    web_app.last_activity = lambda: people_activity(web_app.settings)
    serverapp.log.info("pangaea_lab: only kernel and terminal activity keeps this server")
