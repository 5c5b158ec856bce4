"""The pages of events and projects beside the pages of their things (issue 31): "CKF cutover" of CKF,
"Fastly renewal" of Fastly (kctui.compiler.builtin.named_events makes them). The mention step asks two
things of them: which thing a title or heading that names an event is about too (`event_of`), and which
event a statement of the thing's speaks of when it writes the event's noun alone (`events_of_things`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from kctui.compiler.builtin.named_events import event_noun


def event_of(written: tuple[str, ...], places: list[tuple[int, int, str]]) -> str:
    """The page of the thing the first name of a title or heading (`written`: its words; `places`: the
    names it holds, in order, the longest first at one word) is an event of, or "": a shorter name opens at
    its word and the longer one ends with a noun of a doing after it and a release number it may carry
    ("Fastly renewal" of Fastly, "LaneOS 7.5.0 rollout" of LaneOS 7.5.0; not "Primo VE" of Primo, nor
    "SQLite write-ahead logging" of SQLite). A section or a source so titled is about both: the renewal's
    quote is Fastly's too."""
    if len(places) < 2 or places[1][0] != places[0][0] or places[1][1] >= places[0][1]:
        return ""
    tail = written[places[0][0] + places[1][1]:places[0][0] + places[0][1]]
    words = [w for w in tail if not w[:1].isdigit()]
    return places[1][2] if len(words) == 1 and tail[-1] == words[0] and event_noun(words[0]) else ""


def events_of_things(by_words: Mapping[tuple[str, ...], str], names: Mapping[str, Iterable[str]],
                     words: Callable[[str], tuple[str, ...]]) -> dict[str, list[tuple[str, str]]]:
    """thing's page -> (noun, event's page) for each page (`names`: slug -> its names) titled by another
    page's name (`by_words`: a name's case-folded words -> its page) and a noun of a doing written in
    lower case ("CKF cutover" of CKF). Where a statement is the thing's, that noun written alone
    ("Cutover: ~~Sat 21 Nov~~ -> Sat 28 Nov" in the note on CKF) says which event's page it is for: which
    cutover the line speaks of is the thing's."""
    out: dict[str, list[tuple[str, str]]] = {}
    for slug in sorted(names):
        for name in names[slug]:
            written = words(name)
            if len(written) < 2 or not event_noun(written[-1]):
                continue
            thing = by_words.get(tuple(w.casefold() for w in written[:-1]))
            if thing is not None and thing != slug and (written[-1], slug) not in out.get(thing, ()):
                out.setdefault(thing, []).append((written[-1], slug))
    return out
