"""Telling listeners of a change: the practice record, an exercise and a page's progress line
each call their listeners (views, lines, the browser's copy) after every change."""

from __future__ import annotations

from typing import Callable


class Listened:
    """A base class: :meth:`subscribe` a callable, and it is called after every change."""

    _listeners: list[Callable[[], None]]

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change (once, however often it subscribes)."""
        listeners = self.__dict__.setdefault("_listeners", [])
        if listener not in listeners:
            listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        listeners = self.__dict__.get("_listeners", [])
        if listener in listeners:
            listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self.__dict__.get("_listeners", ())):
            listener()
