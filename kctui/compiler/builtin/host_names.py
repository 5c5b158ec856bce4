"""A host's name gets a page on one mention (issue 31, session 25 N): an identifier in lower case joined by
hyphens and ending in a zero-padded number ("pacs-tst-01", "rgy-fs01", "planbus-app01", "pg-docs-prod-01")
names one machine of a numbered fleet; a note names it only to say what runs there, what broke on it or
what to do with it, so its one mention is a fact of a thing that no other thing's page holds.

Until now such a name needed a value in its sentence (kctui.compiler.builtin.recall.numbered) or a second
source; named once without one it stayed a passing mention. On the 50 writers' notes the passing mentions
of this shape were labelled things 22 times out of 24 ("todo-…-2027" a file's name and "x4-2210" a model
were not; neither has this shape), where every other passing mention's shape was a labelled thing a third of
the time or less (full names 31 %, one capitalised word 31 %, a domain 50 %, a chat channel 36 %).

Not a host's number without a hyphen ("dc01", "login02": as often a label as a machine), not a number that
is not zero-padded ("etl-1", "db-2": a step's or a version's as often), not a placeholder's letters
("xxx-salto01"), nor a word English has before the number ("week-01", "phase-02").
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_evidence import Candidate

# lower-case parts joined by hyphens, the last a few letters and a zero-padded number or a zero-padded
# number alone ("amos-app-01", "rgy-fs01", "kelpie-mgmt01"); a sibling after a slash may follow ("-01/02")
_HOST = re.compile(r"^(?P<parts>[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-(?P<last>[a-z]{0,8})0\d{1,2}(?:/\d{1,3})?$")
# the same in capitals, one of a numbered fleet or register ("BOS-DC01", "STN-SALTO01", "H-031"; not a
# ticket's number, "SRE-882", nor a level's, "SEV-2": not zero-padded)
_FLEET = re.compile(r"^(?P<parts>[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*)-(?P<last>[A-Z]{0,8})0\d{1,3}$")


def host_name(name: str) -> bool:
    """Is `name` a host's name by its shape (`_HOST`): not a placeholder's letters ("xxx-salto01"), nor one
    English word before its number ("week-01", "phase-02"; "cron-01" and "amos-app-01" are hosts)?"""
    m = _HOST.match(name) or _FLEET.match(name)
    if m is None:
        return False
    parts = m["parts"].casefold().split("-") + ([m["last"].casefold()] if m["last"] else [])
    if any(len(p) > 1 and len(set(p)) == 1 for p in parts):
        return False  # "xxx-salto01", "yy-01": a placeholder's letters
    return len(parts) > 1 or wd.zipf(parts[0]) < wd.COMMON_ZIPF


def page_on_one_mention(c: Candidate) -> bool:
    """Does a candidate get a page for being a host's name, named once (`host_name`): a candidate the
    text names as an identifier, in a code span of its own ("`mkx-cloud-01/02`") or, in capitals, as a
    capitalised word (not a code member, not a model after a capitalised word)?"""
    return (c.kinds <= {"ident", "code"} if c.name.islower() else c.kinds <= {"caps", "ident"}) and c.vouched \
        and host_name(c.name)


def mark_hosts(cands: dict[str, Candidate]) -> None:
    """Each candidate that is a host's name (`page_on_one_mention`) counts as one a fact is stated of: a
    page on one mention, whatever its sentence holds."""
    for c in cands.values():
        if page_on_one_mention(c):
            c.fact = True
