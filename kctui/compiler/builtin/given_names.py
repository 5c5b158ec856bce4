"""A person named by a given name alone, set apart as a person by the place the sentence gives it (issue 31): notes
name vendors' contacts, colleagues in other teams and people on the phone by their first name, once, with who they
are beside it, and that is the fact a reader looks for ("who is Owen?": "our integration engineer (Owen)").

- **a role in brackets after it** (`_GIVEN_ROLE`): a given name, not a surname (no capitalised word before it),
  then a role or an acronym in brackets: "Carla (FOH manager) rings Gareth", "Priya (EE)", "Jenny (account mgr)";
- **alone in brackets after a role** (`_ROLE_GIVEN`): a role, then the name alone in brackets: "our
  integration engineer (Owen)", "the billing team lead (Carol)";
- **someone of an organisation, mid-sentence** (`_GIVEN_MEMBER`): the name after a word of the sentence (not
  opening it, where an imperative stands: "Shout at Dana", "Log in …"), then "from", "at" or "@" and the
  organisation's name (a capitalised word): "had a call with Steve from Chipside", "went back to Tom at CDW-G",
  "chase Rob @ Kelvin". (kctui.compiler.builtin.people_signals.member_spans reads it opening a bracket or a
  label's value.)

The word is a given name only where English does not use it as often as its ordinary words (people_signals
MEMBER_ZIPF: "Support (tier 2)", "Backup (nightly)" are words), where the document never writes it in lower case,
and where it is no calendar word, function word or word with an English ending ("Pricing (annual)"; a name in
-s reads as a plural, "Records (Ros)", and is left to the other rules). Each is a
span only this place vouches for: the sentence is a fact stated of the person, the page cites it
(kctui.compiler.builtin.recall). Never a list of names: only the place says it is a person's.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd

GIVEN_ZIPF = 5.0  # a word this frequent is an ordinary word capitalised ("Support", "Backup"), not a given name
_GIVEN = r"(?P<name>[A-Z][a-zà-ÿ]{1,14})"
# a given name opening, or after a space, a bracket, a comma, a slash, a cell's bar or a quote's mark; then a role in
# brackets: lower-case words or one acronym ("(FOH manager)", "(EE)"), no number
_GIVEN_ROLE = re.compile(r"(?:^|(?<=[\s(,;/|>]))" + _GIVEN + r" \((?P<role>(?:[A-Z]{2,5} )?[a-z][a-z .&/'’-]{1,28}|[A-Z]{2,5})\)")
# a lower-case word, then the name alone in brackets ("engineer (Owen)")
_ROLE_GIVEN = re.compile(r"\b(?P<role>[a-z]{3,}) \(" + _GIVEN + r"\)")
# a word of the sentence, then the name, then from / at / @ and a capitalised word ("with Steve from Chipside")
_GIVEN_MEMBER = re.compile(r"(?<=[a-z,] )" + _GIVEN + r" (?:from|at|@) (?:the )?(?=[A-Z])")
_CAPITAL_BEFORE = re.compile(r"[A-Z][\w'’.-]*\s$")  # a capitalised word right before: the name is a surname


def given_spans(plain: str, lower: ug.Lower) -> list[nm.Span]:
    """The one-word given names the sentence sets apart as a person's by their place (the module's docstring), as
    spans of kind "bracketed" (a name its place vouches for however common its word)."""
    out: list[nm.Span] = []
    taken: set[int] = set()
    # (the literal text each pattern cannot match without, a bracket after a space or a word of membership
    # between spaces: most sentences hold none, and the patterns try every position of a sentence)
    patterns = (_GIVEN_ROLE, _ROLE_GIVEN) if " (" in plain else ()
    if " from " in plain or " at " in plain or " @ " in plain:
        patterns += (_GIVEN_MEMBER,)
    for pattern in patterns:
        for m in pattern.finditer(plain):
            word, start = m.group("name"), m.start("name")
            if start in taken or not _given(word, lower) or _CAPITAL_BEFORE.search(plain[:start]):
                continue
            if pattern is not _GIVEN_MEMBER and not _a_role(m.group("role")):
                continue
            taken.add(start)
            out.append(nm.Span(word, start, m.end("name"), start == 0, "bracketed", (word,)))
    return sorted(out, key=lambda s: s.start)


def _given(word: str, lower: ug.Lower) -> bool:
    """Can the word be a given name: not one the document writes in lower case, no function or calendar word, no
    frequent word, no word with an English ending?"""
    low = word.casefold()
    return not (low in lower or low in wd.FUNCTION_WORDS or low in wd.CALENDAR or low in wd.CALENDAR_SHORT
                or wd.zipf(word) >= GIVEN_ZIPF or nm.english_ending(word))


# what English calls a person by their job, short forms too ("account mgr", "Mimecast rep"): a closed class
_ROLE_WORDS = nt.ROLE_NOUNS | frozenset("mgr rep contact tech eng pm".split())


def _a_role(role: str) -> bool:
    """Is the words' head a role ("FOH manager", "integration engineer", "head of IT") or the aside an acronym
    ("EE", "CSM"): not a remark ("(for now)", "(nightly)") or a setting ("(user-driven)")?"""
    if role.isupper():
        return True
    words = role.casefold().split()
    head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
    return head.removesuffix("s") in _ROLE_WORDS
