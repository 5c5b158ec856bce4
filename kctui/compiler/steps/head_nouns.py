"""A name and a lower-case head noun is a thing of its own, and the name alone stays one too (issue 31).

Notes write a thing's name and, after it, a noun of what of it they mean: "aggbridge logs", "Kingsmead
substation", "kiln rebuild". The first-word rule of kctui.compiler.steps.recurrence takes a lone word that opens
a longer name for that longer name where it is written ("Valery" of "Valery Bugakov": a given name before a
surname), and gives the lone word no page of its own. A surname is written with a capital; a head noun written
in lower case after a name is none, so "aggbridge" (a passing mention in one source, a page's name in another)
keeps its page beside "aggbridge logs", and a line on the logs is about aggbridge too (it names it: the mention
step puts it on both pages).

`surnamed` reads the names as their sources write them: the names a pass's sources give pages, mention in passing
or the previous generation's pages carry (titles and aliases), so an incremental pass decides as a full one does.
"""

from __future__ import annotations

from collections.abc import Iterable

from kctui.core.slugs import identity_key


def surname_cased(name: str) -> bool:
    """Is every word after the first of a longer name written as a surname is, with a capital first ("Valery
    Bugakov", "Priya Nand-Okafor"; not "aggbridge logs", "Kingsmead substation", "kiln rebuild")?"""
    words = name.split()
    return len(words) >= 2 and all(w[:1].isupper() for w in words[1:])


def surnamed(names: Iterable[str]) -> set[str]:
    """The identity keys of the longer names (two words or more) of `names` written as a given name and a surname
    may be (`surname_cased`): the keys the first-word rule may read as a person's full name."""
    return {identity_key(n) for n in names if " " in n.strip() and surname_cased(n.strip())}
