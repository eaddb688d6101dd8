"""Buttons that cannot fire twice for one intention.

A double click on **Apply** must play one move, not two.  The browser sends each click to the
kernel as a message, and the kernel handles them one after the other: disabling a button while
its work runs is not enough, because the second click of a double click is often on its way
before the page has heard that the button is disabled.  So :class:`OneAtATime` does both:

- while a click's work runs, every button of the group is disabled (the page shows it);
- a click on the same button, with no other click between, that the browser sent less than
  :data:`DOUBLE_CLICK` after the previous one (both read on the browser's own clock from the
  messages) is the second half of a double click, and is dropped.  A click on another button
  always counts, and so does the next one on the first button: a learner who reads the
  verdict, presses Clear and checks again at once means each.

The browser says it first: it numbers the clicks of a double click (``event.detail`` is 2 for
the second), and :data:`BROWSER_GUARD` (run by the board widget's script, once per page)
drops every such second click on a widget button before the button hears it, whatever its
speed.  The rule above stays as the second line, for clicks the page did not number.

Only clicks that come from a page count as possible doubles (the kernel is handling a widget
message from the browser, which carries the browser's clock); a script or a test calling
``button.click()`` has every click counted.

>>> from types import SimpleNamespace
>>> apply, undo = SimpleNamespace(disabled=False), SimpleNamespace(disabled=False)
>>> moves = []
>>> guard = OneAtATime([apply, undo])
>>> guard.run(lambda: moves.append("apply"), key="apply", sent=10.0)
True
>>> guard.run(lambda: moves.append("apply"), key="apply", sent=10.05)  # the second of two
False
>>> guard.run(lambda: moves.append("undo"), key="undo", sent=10.3)     # another button
True
>>> guard.run(lambda: moves.append("apply"), key="apply", sent=10.4)   # Apply after Undo
True
>>> guard.run(lambda: moves.append("apply"), key="apply", sent=12.0)   # a new click, later
True
>>> moves, apply.disabled
(['apply', 'undo', 'apply', 'apply'], False)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterable

#: seconds within which a second click on the same button is the second half of a double click
#: (a click sent after seeing a result comes later: the result's way back and a glance)
DOUBLE_CLICK = 0.15

_unset = object()

#: the page's side (JavaScript, run by :mod:`.board_widget`'s script): a click that the browser
#: counts as the second (or later) of a double click, on a widget's button, is stopped on the
#: window in the capture phase, before the button or anything else hears it.  A press of Enter
#: or Space on a button is a click with ``detail`` 0, and counts.
BROWSER_GUARD = """
function guardDoubleClicks() {
  // installed once per page, whichever widget's view comes first
  if (window.plDoubleClickGuard) return;
  window.plDoubleClickGuard = true;
  window.addEventListener("click", (event) => {
    const target = event.target && event.target.closest ? event.target : null;
    const button = target ? target.closest("button.jupyter-button, button.widget-button") : null;
    if (button && event.detail > 1) {
      event.stopImmediatePropagation();
      event.preventDefault();
    }
  }, true);
}
"""


def click_sent_at() -> float | None:
    """When the browser sent the widget message being handled, in seconds on the browser's
    clock (``None`` for a cell's code or a script: no browser message is being handled)."""
    try:
        from IPython import get_ipython   # only inside a kernel (a notebook or the app)
        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent() if kernel is not None else None
    except Exception:   # no kernel, or one too old to say: every click counts
        return None
    header = (parent or {}).get("header") or {}
    date = header.get("date")
    if header.get("msg_type") != "comm_msg":
        return None
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
        self._last: tuple[Any, float] | None = None   # the last click's button and time sent
        self._busy = False

    def wrap(self, call: Callable[[], Any]) -> Callable[[Any], None]:
        """An ``on_click`` handler that runs ``call`` through :meth:`run` (one per button)."""
        def handler(_button: Any) -> None:
            self.run(call, key=call)
        return handler

    def run(self, call: Callable[[], Any], key: Any = None, sent: Any = _unset) -> bool:
        """Run ``call`` with the buttons disabled, unless the click is the second half of a
        double click on the same button (``key``); True if it ran.  ``sent``: the click's time
        on the browser's clock (read from the message being handled when not given)."""
        sent = click_sent_at() if sent is _unset else sent
        last = self._last
        if self._busy or (sent is not None and last is not None and last[0] == key
                          and 0 <= sent - last[1] < DOUBLE_CLICK):
            return False
        before = [button.disabled for button in self.buttons]
        self._busy = True
        for button in self.buttons:
            button.disabled = True
        try:
            call()
        finally:
            self._last = (key, sent) if sent is not None else None
            self._busy = False
            for button, was in zip(self.buttons, before):
                button.disabled = was
            if self.settle is not None:
                self.settle()
        return True
