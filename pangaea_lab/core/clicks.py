"""Buttons that cannot fire twice for one intention.

A double click on **Apply** must play one move, not two.  The browser sends each click to the
kernel as a message, and the kernel handles them one after the other: disabling a button while
its work runs is not enough, because the second click of a double click is often on its way
before the page has heard that the button is disabled.  So :class:`OneAtATime` does both:

- while a click's work runs, every button of the group is disabled (the page shows it);
- a click the browser sent before the learner could have seen the previous click's result
  (less than the time that work took, plus :data:`DOUBLE_CLICK`, after the previous click,
  both read on the browser's own clock from the messages) is dropped.

Outside a browser (tests calling ``button.click()``, a script) there is no browser clock and
every click counts.

>>> from types import SimpleNamespace
>>> apply = SimpleNamespace(disabled=False)
>>> moves = []
>>> guard = OneAtATime([apply])
>>> guard.run(lambda: moves.append(apply.disabled), sent=10.0)
True
>>> guard.run(lambda: moves.append(apply.disabled), sent=10.05)   # the second click of two
False
>>> guard.run(lambda: moves.append(apply.disabled), sent=12.0)    # a new click, later
True
>>> moves, apply.disabled
([True, True], False)
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any, Callable, Iterable

#: seconds after a click's result during which another click counts as part of the same one
DOUBLE_CLICK = 0.5

_unset = object()


def click_sent_at() -> float | None:
    """When the browser sent the message being handled, in seconds on the browser's clock
    (``None`` when no browser message is being handled)."""
    try:
        from IPython import get_ipython   # only inside a kernel (a notebook or the app)
        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent() if kernel is not None else None
    except Exception:   # no kernel, or one too old to say: every click counts
        return None
    date = ((parent or {}).get("header") or {}).get("date")
    if isinstance(date, str):
        try:
            date = datetime.fromisoformat(date.replace("Z", "+00:00"))
        except ValueError:
            return None
    return date.timestamp() if isinstance(date, datetime) else None


class OneAtATime:
    """A group of buttons of which one click at a time is handled (see the module's text).

    ``settle`` runs after each click's work, once the buttons are enabled again: the view's
    own rule for which buttons stay disabled (Undo with nothing to undo)."""

    def __init__(self, buttons: Iterable[Any], settle: Callable[[], None] | None = None):
        self.buttons = list(buttons)
        self.settle = settle
        self._last_sent: float | None = None
        self._took = 0.0
        self._busy = False

    def wrap(self, call: Callable[[], Any]) -> Callable[[Any], None]:
        """An ``on_click`` handler that runs ``call`` through :meth:`run`."""
        def handler(_button: Any) -> None:
            self.run(call)
        return handler

    def run(self, call: Callable[[], Any], sent: Any = _unset) -> bool:
        """Run ``call`` with the buttons disabled, unless the click belongs to the previous
        one; True if it ran.  ``sent``: the click's time on the browser's clock (read from
        the message being handled when not given)."""
        sent = click_sent_at() if sent is _unset else sent
        if self._busy or (sent is not None and self._last_sent is not None
                          and 0 <= sent - self._last_sent < self._took + DOUBLE_CLICK):
            return False
        before = [button.disabled for button in self.buttons]
        self._busy = True
        for button in self.buttons:
            button.disabled = True
        start = time.monotonic()
        try:
            call()
        finally:
            self._took = time.monotonic() - start
            self._last_sent = sent
            self._busy = False
            for button, was in zip(self.buttons, before):
                button.disabled = was
            if self.settle is not None:
                self.settle()
        return True
