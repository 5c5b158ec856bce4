"""Action items handed to a person in the present tense (issue 31, point 3; session 25): where no heading,
lead-in, "to" or "will" says so, a clause whose subject is one of the document's people (or a name shaped
as a person's, "Mr. Mehta", or a given name the document names no thing by, agenda.given_name) and whose
verb is a task's in the present says who does what:

- the simple present of a plan: "Wed 2 Dec: Marek rolls meter_limit=3 to prod", "Tom writes it, runs
  nightly at 03:30", "if PS isn't back by Sun 6pm: Jen calls Dana, Dana decides on rollback";
- a task under way: "Ade sorting laptop + a Freshservice agent seat", "Priya negotiating.", "Sam is
  getting a quote for a second backup -80", "Mags is fixing the rota";
- an owner: "Lukas owns the migration, target cutover w/c 23 Nov", "Felix owns, first Monday of the month".

The subject opens its clause (the sentence's start, after a stop, a colon, a dash, an arrow or a comma),
so a name inside a condition ("if Tom calls") or after a preposition hands nothing. Verbs of saying,
knowing, wanting and being ("Dana says …", "Tom needs …", "Leo starts Mon 9th", "Kestrel goes up 6%")
report, they hand no task. The words are English's (closed class), no word of any corpus; each claim's
value is its sentence as written.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import agenda
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.named_owner import Lazy, Written, name_word
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, as_written, bare, ev
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key

_HONORIFIC = r"(?:(?P<title>Mr|Ms|Mrs|Dr)\.?\s+)?"
_PART = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:[-'’][A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?"  # "Tom", "Tomás", "O'Neil", "Santschi-Cooney" (not "Tom's")
_WHO = rf"(?P<who>{_PART}(?:\s+{_PART})?)"
# the clause's start: the sentence's, after a stop, a colon, a dash, an arrow, a bracket or a comma
_START = r"(?:^|(?<=[.!;:,—–→(])\s*|(?<=\s)-\s+)"
_PRESENT = re.compile(_START + _HONORIFIC + _WHO + r"\s+(?:(?P<be>is|are)\s+)?(?P<verb>[a-z][a-z'’-]+)\b(?P<more>\s+[\w@#`\"'])?")

_LOWER = re.compile(_START + r"(?P<who>[a-z][a-z'’-]{1,20})\s+(?P<verb>[a-z][a-z'’-]+)\b")
# a person written in lower case handed a task by "to" ("jonas to find which robots …", "ray + hannah to confirm …")
_LOWER_TO = re.compile(_START + r"(?P<who>[a-z][a-z'’-]{1,20})(?:\s*(?:\+|&|\band\b)\s*[a-z][a-z'’-]{1,20})?\s+to\s+(?P<verb>[a-z][a-z'’-]+)\b")

# verbs that report, know, want, are or happen: no task ("Dana says", "Tom needs", "Leo starts Mon 9th")
REPORTING = frozenset(
    "says thinks knows wants needs likes loves hates seems looks has is was does feels reckons agrees mentions "
    "notes hopes prefers believes remembers understands sees hears means thanks starts joins leaves returns "
    "arrives works lives sits uses gets goes comes confirms asks suggests proposes wonders doubts expects "
    "reports stays remains becomes happens belongs depends applies matters plays keeps shows sounds wishes "
    "misses worries cares owes gives takes runs".split())  # ("Jen runs warehouse ops": a role)
REPORTING_ING = frozenset(
    "being having saying thinking feeling hoping wondering going starting leaving joining returning arriving "
    "working living sitting using getting coming staying waiting wanting needing looking asking "
    # nouns in -ing after a name ("Dana meeting Tue")
    "nothing something anything everything evening morning during meeting building string ceiling wedding "
    "engineering marketing accounting".split())


_NOT_WHO = wd.FUNCTION_WORDS | wd.CALENDAR  # a clause's first word that is no one ("The", "Mon")


def present_owner(text: str, people: set[str], names: dict[str, str], written: Written | Lazy | None = None) -> str | None:
    """The person a clause of the sentence (read bare) hands a task to in the present tense, or None.
    `people`: the keys of the document's people's names; `names`: the document's names by key; `written`:
    how the document writes its words (named_owner), for a common given name closing its clause."""
    if text.rstrip().endswith(("?", ":")):
        return None  # a question asks, a lead-in introduces
    for m in _LOWER.finditer(text) if people else ():
        if identity_key(names.get(identity_key(m.group("who")), "")) in people and _task_verb(m.group("verb").casefold(), False) \
                and _takes(text[m.end("verb"):], m.group("verb"), names):
            return names[identity_key(m.group("who"))]  # a person's name written in lower case: "jun owns the redis migration"
    for m in _LOWER_TO.finditer(text) if people and " to " in text else ():
        if identity_key(names.get(identity_key(m.group("who")), "")) in people and m.group("verb") not in agenda.OBJECT_WORDS \
                and m.group("verb") not in wd.FUNCTION_WORDS:
            return names[identity_key(m.group("who"))]  # "jonas to find which robots have …"
    for m in _PRESENT.finditer(text):
        verb = m.group("verb").casefold()
        # a task under way names what ("Marco is fuming" says how he is), or closes its clause on the
        # person doing it: "— Jordi chasing", "price TBD, Dana negotiating", "(Felix checking)"
        closing = verb.endswith("ing") and not m.group("more")
        if not _task_verb(verb, bool(m.group("be"))) or closing and (verb not in CLOSING_TASK_ING or m.group("be")
                                                                      or not _CLAUSE_CLOSES.match(text[m.end("verb"):])):
            continue
        who = m.group("who")
        if who.split()[0].casefold() in _NOT_WHO:
            continue
        if m.group("title") or identity_key(names.get(identity_key(who), who)) in people or nt.person_shape(who):
            return names.get(identity_key(who), who)
        if agenda.given_name(who, names) and (closing or _takes(text[m.end("verb"):], verb, names)):
            return who  # a given name the document knows no thing by: "Ade sorting the laptop", "Raj adds you"
        if closing and written is not None and " " not in who and name_word(who, written):
            return who  # a common given name the document writes where a name goes: "Tom negotiating"
    return None


_CLAUSE_CLOSES = re.compile(r"^\s*(?:[.;,)!]|$)")
# the verbs of a task under way that may close a clause on the one doing it (closed class: doing, not being
# beside someone's task, "(Olu shadowing)", "Lena ramping", nor a noun's -ing, "(Fnv hashing)", "Conceptually speaking")
CLOSING_TASK_ING = frozenset(
    "chasing negotiating checking reviewing drafting leading fixing handling sorting organising organizing arranging "
    "booking ordering investigating testing writing updating preparing raising sending packaging building coordinating "
    "deputising deputizing covering escalating scheduling planning configuring installing migrating deploying "
    "emailing calling chairing presenting tracking monitoring documenting triaging debugging patching rebuilding "
    "replacing repairing quoting costing approving signing following researching benchmarking".split())


# what a verb takes after it: its object or a preposition ("prunes it", "adds you to", "sorting the laptop")
_TAKES = re.compile(r"^\s+(?:it|them|him|her|you|me|us|the|a|an|this|that|these|those|his|their|our|my|your|all|both|each|"
                    r"up|out|back|off|over|to|on|in|into|with|for|\d)\b")


def _takes(after: str, verb: str, names: dict[str, str]) -> bool:
    """After a given name (a word that may as well be a noun's: "Template files go …", "Firewall rules
    UDP …"), the verb must take what a task's does: an object, a preposition, a name of the document, or
    close its clause for "owns" ("Dana owns, I sign off")."""
    if _TAKES.match(after):
        return True
    if verb == "owns" and re.match(r"^\s*(?:[,.;]|$)", after):
        return True
    m = re.match(r"^\s+([A-Z][\w'’-]+)", after)
    return bool(m) and identity_key(m.group(1)) in names


def _task_verb(verb: str, be: bool) -> bool:
    """A present verb that does a task: "owns", a third person's -s ("rolls", "writes", not "says",
    "process"), an -ing ("sorting", "is fixing"; not "being", "going"); after "is" only an -ing."""
    if verb.endswith("ing") and len(verb) > 5:
        return verb not in REPORTING_ING
    if be or verb in REPORTING or verb in wd.FUNCTION_WORDS:
        return False
    return verb == "owns" or len(verb) >= 4 and verb.endswith("s") and not verb.endswith(_NOT_VERB_ENDINGS)


# endings of a word in -s that is no verb: "process", "status", "basis", a plural's "reviewers", "options"
_NOT_VERB_ENDINGS = ("ss", "us", "is", "'s", "’s", "ers", "ors", "ists", "ments", "ions", "ants", "ents")


def claims(doc: Document, us: list[Unit], names: dict[str, str], people: set[str], taken: set[int]) -> list[Claim]:
    """The action items handed in the present tense, each of its owner where the document names them
    (with its due where the sentence names one); not on a line another rule typed (`taken`, updated)."""
    out: list[Claim] = []
    written = Lazy(doc.lines)
    for u in us:
        if u.kind == "row" or u.first in taken or len(u.plain) > MAX_STATEMENT_CHARS:
            continue
        owner = present_owner(bare(u.plain), people, names, written)
        if owner is None or len(u.plain.split()) < 3 or not as_written(doc, u, u.plain):
            continue
        e = ev(doc, u.first, u.last)
        out.append(Claim(agenda.page_of(owner, u.plain, doc, names), "action item", u.plain, "", "fact", "statement", e))
        if due := agenda.due_of(u.plain):
            out.append(Claim(doc.title, "due", due, "", "fact", "statement", e))
        taken.add(u.first)
    return out
