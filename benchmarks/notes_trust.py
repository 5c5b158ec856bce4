"""Lines on the wrong page (issue 31, trust): of the notes benchmark (benchmarks/notes_eval.py), the cited
lines on an entity page that say something of another thing and nothing of the page's own.

A claim on a page must say something about that page's thing. On each entity page that is a labelled
thing's (one of its names is one of the page's: notes_eval.things_of, quality.key), a cited line
(notes_eval.read_wiki's statements) is on the wrong page when

- a line it cites is labelled as a fact of another thing of the writer (one none of whose names is the
  page's): it says something of that thing;
- no line it cites is labelled as a fact of the page's thing;
- its text names neither the page nor the page's thing (any of their names, whole words, after the
  page's own "**Title** — label:" prefix, without its citations): it does not say it of this one.

Counted per writer and pooled over the writers, of all cited lines on such pages (lower is better).
"""

from __future__ import annotations

import re

from quality import norm

# the page's own prefix of a cited line ("* **Datadog** — note: …", "> * **Tom** — role: …")
_PREFIX = re.compile(r"^(?:>\s*)?\*\s+\*\*[^*]+\*\* — (?:[^:]{1,40}: )?")
_CITATIONS = re.compile(r"\s*\^\[[^\]]*\]")


def wrong_page(things: list[dict], pages: list[dict]) -> tuple[int, int, list[tuple[int, str]]]:
    """(lines on the wrong page, cited lines on the entity pages of labelled things, the wrong lines as
    misses: (0, text)) of one writer: `things` as notes_eval.things_of gives them, `pages` as
    notes_eval.read_wiki does."""
    facts_at: dict[tuple[str, int], set[int]] = {}  # (file, line) -> the things with a fact there
    for i, thing in enumerate(things):
        for fact in thing["facts"]:
            facts_at.setdefault((fact["file"], fact["line"]), set()).add(i)
    wrong, lines, misses = 0, 0, []
    for page in pages:
        own = {i for i, thing in enumerate(things) if page["names"] & thing["names"]}
        if page["kind"] != "entities" or not own:
            continue
        names = set(page["names"]).union(*(things[i]["names"] for i in own))
        for statement in page["statements"]:
            lines += 1
            said = {i for path, lo, hi in statement["cites"] for line in range(lo, hi + 1)
                    for i in facts_at.get((path, line), ())}
            others = {i for i in said - own if not things[i]["names"] & page["names"]}
            if not others or said & own or _names(_CITATIONS.sub("", _PREFIX.sub("", statement["line"])), names):
                continue
            wrong += 1
            path, lo, _ = statement["cites"][0]
            misses.append((0, f"{page['title']} <- {path}:L{lo} (a fact of "
                              f"{', '.join(sorted(things[i]['name'] for i in others))}): {statement['line'][:120]!r}"))
    return wrong, lines, misses


def _names(text: str, names: set[str]) -> bool:
    """Does `text` hold one of `names` (normalised as quality.norm does) as whole words?"""
    folded = norm(text)
    return any(re.search(r"(?<!\w)" + re.escape(norm(name)) + r"(?!\w)", folded) for name in names if name)
