"""A rare capitalised word alone in brackets, or first in them before a comma, after a word (issue 31, session
30): the name the writer gives whoever or whatever the words before it speak of, in a sentence with no value
too ("Marta told Finance (Gavin) already", "laptop from IT (Hank), enroll in Jamf", "Oracle DBA (Sanjay, via
Cerner support) confirms", "3 apps left on Clever (Lexia, Zearn, ST Math)"). kctui.compiler.builtin.named_once
.bracketed reads such a word in a sentence with a value, or alone where English has no such word; a given
name is a word English has ("Gavin", "Sandra"), so without a value its place must say more.

The place: a bracket right after a word of the sentence (not opening it), the word alone in it or first before
a comma; not after a person's full name ("Paul Denton (Procurement)": their team), nor after an amount
("$6,500/month (Enterprise)": a plan), nor closing a list item ("- a doc page for the training (Rosa)": the item's
owner, an action item's), nor the word right before it written short or in full ("tomek
(Tomasz)", "Dev (Devinder)": the same one, `named_once._short_form`). The word: a given name's shape
(`given_names._given`: not written in lower case by the document, no function or calendar word, no English
ending, nor a noun's derived ending: "(Accessibility)", "(Hygienist, …)"), and rarer than an ordinary word
(`words.COMMON_ZIPF`: not "(Beta)", "(Draft)", "(Legacy)", "(Primary)": a state or a tier). The apposition is the fact: a page on one mention (kctui.compiler.builtin.recall).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kctui.compiler.builtin import given_names, named_once
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd

# (the bracket first: the scan skips to it) a word, a space, the bracket; the name; its close or a comma
_ALONE = re.compile(r"\((?<=[\w.!?*] \()(?P<name>[A-Z][a-zà-ÿ]{1,14})(?=\)|, )")
_FULL_NAME_BEFORE = re.compile(r"[A-Z][a-zà-ÿ'’-]+ [A-Z][a-zà-ÿ'’-]+\s$")
_AMOUNT_BEFORE = re.compile(r"[$€£¥][^\s(]*\s$")
_CLOSING = re.compile(r"\)[\s.!]*$")  # the bracket closes its line: a list item's owner ("… at the training (Rosa)")
# a noun English derives, a quality or a field, glossing the words before it ("WCAG compliance (Accessibility)",
# "Ruth (Development)", "per role (Hygienist, …)"): a closed class of endings a given name does not take
_DERIVED = ("ity", "tion", "sion", "ment", "ness", "ism", "ist", "ogy", "ics", "ship", "hood")


def spans(plain: str, lower: ug.Lower | frozenset[str], kind: str = "paragraph") -> list[nm.Span]:
    """The words the sentence sets apart in brackets as a name (the module's docstring), as spans only this
    place vouches for; not one closing a list item (`kind` "item"): the item's owner, whose action item it is
    (kctui.compiler.builtin.agenda, commitments)."""
    if " (" not in plain:
        return []
    out: list[nm.Span] = []
    for m in _ALONE.finditer(plain):
        word, before = m.group("name"), plain[:m.start()]
        if given_names._given(word, lower) and wd.zipf(word) < wd.COMMON_ZIPF and not word.endswith(_DERIVED) \
                and not _FULL_NAME_BEFORE.search(before) and not _AMOUNT_BEFORE.search(before) \
                and not named_once._short_form(word, before) \
                and not (kind == "item" and _CLOSING.match(plain, m.end("name"))):
            out.append(nm.Span(word, m.start("name"), m.end("name"), False, "bracketed", (word,)))
    return out


def keys(plain: str, named: list[tuple[nm.Span, str]], cands: Mapping[str, Any],
         lower: ug.Lower | frozenset[str], kind: str = "paragraph") -> list[str]:
    """The keys of the names of `named` (spans and their candidates' keys) the sentence sets apart in
    brackets: each a page on this one mention."""
    starts = {s.start: s.end for s in spans(plain, lower, kind)}
    return [k for s, k in named if k in cands and starts.get(s.start) == s.end] if starts else []
