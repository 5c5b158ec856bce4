"""Names written inside one word of a statement (issue 31): the mention step reads a statement's words as
the built-in reader does, with inner slashes and dots kept ("Leeds/Doncaster/Wakefield", "gcs01.rcs.
northmoor.ac.uk", "rn-141..148"), so a page's name written so is never a word of its own. Three shapes
of notes name things in one word, by how it is written, not by what it says:

- **names joined by a slash**: "Leeds/Doncaster/Wakefield", "Grafana/Prometheus self-hosted", "gus/hana",
  where every part is a page's name written with a capital, two or three of them (a path, a URL, a
  repository or a label joins words and files in lower case: "team/batchers", "sourcegraph/grafana",
  "github.com/acme/log", "dogfood/kubernetes/argocd"), or in lower case in a source written in lower
  case (`lowered`: "gus/hana"); and a numbered name with its sibling's number, "rhap-prd-01/02";
- **a host's full domain name**: its first label, where that label holds a digit ("wmsdb-rep-01.ridgeline.
  internal", "gcs01.rcs.northmoor.ac.uk"; not a file, "deadline.ini", nor a domain named as a brand,
  "Bunny.net", which the page's own forms find);
- **a range of numbered names**: its first ("rn-141..148", "dl-db01..03").

A part is found as a whole name is (kctui.compiler.steps.name_finder `NameFinder`): whole, with the case
a name's entry asks (a capital for an English word, the exact spelling for a short one), and only a
name of one word of three characters or more ("C/C++" names no page "C#": a short name is found only
as written whole).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

MAX_JOINED = 3  # names a slash joins (more: a path)
MIN_PART = 3  # characters of a name found inside a word
_RANGE = re.compile(r"^(.+?[^.])\.\.[\w-]+$")
_SLASH = "/"


class NameEntry(Protocol):
    words: tuple[str, ...]
    slug: str
    capitalised: bool
    exact: str


def parts(word: str) -> list[str]:
    """The names a word may join (see the module's docstring), [] when it joins none."""
    if "://" in word:
        return []
    ranged = _RANGE.match(word)
    if ranged:
        return [ranged.group(1)]
    if _SLASH in word:
        split = [p for p in word.split(_SLASH) if p]
        return split[:1] if len(split) == 2 and split[1].isdigit() else split
    if "." in word:
        label = word.split(".", 1)[0]
        return [label] if any(ch.isdigit() for ch in label) and any(ch.isalpha() for ch in label) else []
    return []


def joined_places(written: Sequence[str], openers: Mapping[str, Iterable[NameEntry]],
                  taken: set[int], lowered: bool = False) -> list[tuple[int, int, str]]:
    """(word, 1, page) of each name of one word a word of the statement holds joined (`parts`), but in the
    words where a name was found already (`taken`); `written`: the statement's words as written
    (`NameFinder.places`), `openers`: a name's first word, case-folded -> its entries; `lowered`: the
    source is written in lower case (kctui.compiler.steps.name_position `lower_case_source`)."""
    found: list[tuple[int, int, str]] = []
    joined = "".join(written)
    if "/" not in joined and "." not in joined:
        return found  # (no word holds a slash or a dot: asked once of the statement, not of each word)
    for i, word in enumerate(written):
        if ("/" not in word and "." not in word[:-1]) or i in taken:
            continue  # (no slash, no dot inside the word: a sentence's last word joins nothing)
        joined = parts(word)
        named = {part: pages for part in joined if (pages := _pages(part, openers))}
        if len(joined) > 1 and not _names_joined(joined, named, lowered):
            continue  # (a path, a URL or a label joins words, not names)
        found += [(i, 1, slug) for pages in named.values() for slug in pages]
    return found


def _names_joined(joined: list[str], named: Mapping[str, list[str]], lowered: bool) -> bool:
    """Are the parts a slash joins names: two or three, every one a page's name written with a capital
    (in a source written in lower case, as written), none a file's or a domain's?"""
    return len(named) == len(joined) <= MAX_JOINED and not any("." in p for p in joined) \
        and (lowered or all(any(ch.isupper() for ch in p) for p in joined))


def _pages(part: str, openers: Mapping[str, Iterable[NameEntry]]) -> list[str]:
    """The pages whose name of one word `part` is, written as the name's entry asks."""
    if len(part) < MIN_PART:
        return []
    return [name.slug for name in openers.get(part.casefold(), ()) if len(name.words) == 1
            and not (name.exact and part != name.exact) and not (name.capitalised and not part[:1].isupper())]
