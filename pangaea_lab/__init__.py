"""pangaea_lab: learn nature board games step by step.

Each game is a sub-package with ``new_game(players=..., seed=...)``; see ``pangaea_lab.core``
for what they share.
"""

__version__ = "0.1.0"
