"""kctui: keeps knowledge bases compiled."""

__version__ = "0.3.0"
