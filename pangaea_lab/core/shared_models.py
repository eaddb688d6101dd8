"""Widget models that many widgets share, so that a page of exercises sends fewer models to
the browser.

Every ipywidgets widget has a ``layout`` model, and most have a ``style`` model too (an HTML
line an ``HTMLStyle``, a button a ``ButtonStyle``): an exercise of fifteen parts is some ninety
models, each created, sent and drawn by the browser, which is where the static site's pages
spend most of their time.  Most of these models are never changed after they are made: a
button's default style, the fixed width of the seed box.  Such a model can be one for the
whole kernel, given to every widget that asks for the same values::

    w.Button(description="Go", layout=shared(w.Layout, width="60px"),
             style=shared(w.ButtonStyle))

When a model must NOT be shared: when anything writes to it after it is made.  A shared layout
whose ``display`` is set to ``"none"`` hides every widget that shares it, on every exercise of
the page.  So a part that is hidden and shown, resized or restyled keeps a layout (or style)
of its own, made with ``w.Layout()`` as before.  To make that mistake loud rather than a page
of vanished widgets, a shared model refuses every change with :class:`SharedModelChanged`;
code that wants to restyle such a widget first gives it its own model
(``widget.layout = w.Layout(...)``), which changes that widget only.

Shared models are made when first asked for, one per kind and values; one that was closed
(``Widget.close_all()``) is made again.
"""

from __future__ import annotations

from typing import Any


class SharedModelChanged(AttributeError):
    """A change to a model that many widgets share (it would change all of them)."""


class _Fixed:
    """Mixed into a widget model class: once made, its synced values cannot change."""

    _fixed = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._fixed and name in self.keys:
            raise SharedModelChanged(
                f"this {type(self).__name__.removeprefix('Shared')} is shared by many widgets, so "
                f"changing its {name} would change all of them; give the widget its own "
                f"first (for instance widget.layout = ipywidgets.Layout(...))")
        super().__setattr__(name, value)


#: the fixed subclass of each model class asked for
_FIXED_CLASSES: dict[type, type] = {}

#: the shared models made so far, by class and values
_SHARED: dict[tuple, Any] = {}


def shared(kind: type, **values: Any) -> Any:
    """The one model of class ``kind`` (a Layout, a style class, or a widget whose state
    never changes) with these ``values``, made on first use and never changed afterwards
    (see the module's text for when a model must not be shared).  ``values`` are plain
    (strings, numbers), as a layout's and a style's are."""
    key = (kind, tuple(sorted(values.items())))
    model = _SHARED.get(key)
    if model is None or model.comm is None:       # not made yet, or closed since
        fixed = _FIXED_CLASSES.get(kind)
        if fixed is None:
            fixed = _FIXED_CLASSES[kind] = type(f"Shared{kind.__name__}", (_Fixed, kind), {})
        model = fixed(**values)
        model._fixed = True
        _SHARED[key] = model
    return model


def shared_style(widget: type, **values: Any) -> Any:
    """The shared style model for widgets of class ``widget`` (a Button's is a ButtonStyle,
    an HTML line's an HTMLStyle) with these ``values``."""
    return shared(widget.class_traits()["style"].klass, **values)
