"""Names a sentence gives only as examples of a kind, or only points to: "a library you've used heavily, for example DateJs
or Redux", "managed external databases (i.e. CloudSQL, RDS, Aurora, Aiven, etc)", "To do list tools like
Things and ToDoist are popular".

What such a sentence says, it says of the kind (libraries, databases, tools), not of each example: the
examples are bare passing mentions (issue 31), a page only where something else vouches for them (another
sentence, another source). After "like" or "such as" right after a word of the kind, the run of names
joined by commas, "and", "or" is the examples wherever the sentence goes on; after "for example", "for
instance", "e.g.", "i.e." only where the run ends its clause ("e.g. CS-0098812 was the 3DS2 one" states
a fact of the record: it is the subject of its own clause). A record's number the sentence points to for
more ("For more details, see #28117.", "learn more in #31193", "outlined in #11832") in a sentence with no
value of its own is a pointer (with one, "3 times in Oct, see OPS-1398, OPS-1415", the records are what the
value is said of), and a
number counting up from 1 an example of one ("include “Closes #12345” in the PR's description").
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.stated_values import valued_outside

_LEAD = re.compile(r"(?:\bfor example|\bfor instance|\be\.g\.|\bi\.e\.)\s*,?\s*$", re.I)
_KIND = re.compile(r"(?:^|\s)(?P<word>[a-z][a-z'-]*)\s+(?:like|such as)\s+$")
_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*/\s*")
_NAME_WORD = re.compile(r"[A-Z0-9#`][\w.+#`-]*")
_ENDS = re.compile(r"^\s*(?:,?\s*(?:etc\.?|and so on|and more)\s*)?(?:$|[,.;:)!?]|\s[-–—]\s)")
# a pointer to where more is said: "For more details, see #28117.", "learn more in #31193", "outlined in
# #10742 and more broadly in #11966"
_POINTER = re.compile(r"(?:\bsee(?:\s+also)?|\b(?:outlined|described|documented|explained|covered|detailed|discussed)"
                      r"\s+in|\bmore(?:\s+[a-z]+)?\s+in)\s*$", re.I)
# a number written as an example of one: its digits counting up from 1 ("Closes #12345", "#1234")
_EXAMPLE_NUMBER = re.compile(r"^[#A-Za-z -]*?#?1234(?:5(?:6(?:7(?:89?)?)?)?)?$")
_NOT_KIND = frozenset({"would", "i'd", "we'd", "you'd", "they'd", "really", "just", "also", "not", "don't",
                       "didn't", "doesn't", "feel", "feels", "looks", "look", "sounds", "seems", "seem"})


def example_keys(plain: str, spans: list[tuple[nm.Span, str]]) -> set[str]:
    """The keys of the names the sentence gives only as examples (see the module's docstring)."""
    if not any(m in plain for m in (" like ", "such as", "example", "instance", "e.g.", "i.e.", "ee ", " in ", "1234")):
        return set()
    ordered = sorted(spans, key=lambda sk: sk[0].start)
    out: set[str] = set()
    i = 0
    while i < len(ordered):
        before = plain[:ordered[i][0].start]
        kind = _KIND.search(before)
        by_kind = bool(kind) and kind.group("word") not in _NOT_KIND and kind.group("word") not in wd.FUNCTION_WORDS
        if _EXAMPLE_NUMBER.match(ordered[i][0].text):
            out.add(ordered[i][1])
        pointed = bool(_POINTER.search(before)) and any(ch.isdigit() for ch in ordered[i][0].text) \
            and not _valued(plain, ordered)
        if not by_kind and not pointed and not _LEAD.search(before):
            i += 1
            continue
        j = i
        while j + 1 < len(ordered) and _joined(plain[ordered[j][0].end:ordered[j + 1][0].start]):
            j += 1
        if by_kind or pointed or _ENDS.match(plain[ordered[j][0].end:]):
            out.update(k for _, k in ordered[i:j + 1])
        i = j + 1
    return out


def _valued(plain: str, spans: list[tuple[nm.Span, str]]) -> bool:
    """Does the sentence hold a value outside its names? Its records are then what the value is said of
    ("(3 times in Oct, see OPS-1398, OPS-1415)": the outages' records), not pointers."""
    return valued_outside(plain, [s for s, _ in spans])


def _joined(between: str) -> bool:
    """Does the text between two names join them in a list (commas, "and", "or", "/"), with at most other
    names of one word between ("CloudSQL, RDS, Aurora": RDS no candidate here)?"""
    if not _SEPARATOR.search(between):
        return False
    return all(_NAME_WORD.fullmatch(w) for w in _SEPARATOR.sub(" ", " " + between + " ").split())


_URL = re.compile(r"https?://[^\s\"'<>()\[\]]+")


def without(plain: str, spans: list[tuple[nm.Span, str]]) -> list[tuple[nm.Span, str]]:
    """The sentence's name spans less the examples and pointers (`example_keys`) and the parts of an
    address the sentence writes out (a raw tag's `src="…%20Dept%20Video.mp4"`): no fact of this sentence
    is theirs."""
    drop = example_keys(plain, spans)
    urls = [(m.start(), m.end()) for m in _URL.finditer(plain)] if "://" in plain else []
    if not drop and not urls:
        return spans
    return [(s, k) for s, k in spans if k not in drop and not any(a <= s.start < b for a, b in urls)]
