"""Clicks as a page sends them, for the widget tests: the browser's clock set by the test."""

from types import SimpleNamespace

from pangaea_lab.core import clicks


def page_clicks(monkeypatch):
    """From now on every click comes from a page, sent when ``clock.now`` says on the
    browser's clock."""
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(clicks, "click_sent_at", lambda: clock.now)
    return clock
