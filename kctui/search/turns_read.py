"""Who speaks a passage and whether it is a heading, read once per text: the ranking, the quoting and the
packet's items ask it of the same passages again and again (a 2 KB chat packet renders a session's group anew
for each turn it tries), each answer a regular expression's match (kctui.search.passages, whose functions these
keep the answers of)."""

from __future__ import annotations

from functools import lru_cache

from kctui.search import passages

speaker_of = lru_cache(maxsize=8192)(passages.speaker_of)
speaker_prefix = lru_cache(maxsize=8192)(passages.speaker_prefix)
is_heading = lru_cache(maxsize=8192)(passages.is_heading)
