"""The main screen's places: its four panes, the focus stops tab cycles through, the pane each stop is
in and the number key of each pane, and which key actions apply in which panes. A leaf: the screen,
its key actions and the screens opened from it all read these names, and it imports none of them."""

from __future__ import annotations

PANES = ("queue", "running", "review", "brief")
PANE_NAMES = {"queue": "Queue", "running": "Running", "review": "Review", "brief": "Brief"}
STOPS = ("bases", "jobs", "running", "items", "brief")  # the focus stops tab cycles through
STOP_PANE = {"bases": "queue", "jobs": "queue", "running": "running", "items": "review", "brief": "brief"}
PANE_STOP = {"queue": "bases", "running": "running", "review": "items", "brief": "brief"}  # a pane's first stop
PANE_KEY = {"queue": "1", "running": "2", "review": "3", "brief": "4"}
# actions that only apply in some panes (elsewhere they are hidden from the footer)
PANE_SCOPED = {"compile": ("queue",), "dry_run": ("queue",), "clear_pause": ("queue",), "toggle_policy": ("queue",),
               "search": ("queue",), "ask": ("queue",), "pages": ("queue",), "policy": ("queue",), "briefs": ("queue",),
               "cancel": ("queue", "running"), "resolve": ("review",),
               "filter": ("queue", "review"), "open": ("queue", "review"), "mark": ("review",),
               "bulk": ("review",)}
MOVE_KEYS = {"up", "down", "j", "k", "pageup", "pagedown", "home", "end"}
HELD, CONFLICT = ("approve", "reject"), ("use_new", "keep", "dismiss")  # the choices of each kind of item
