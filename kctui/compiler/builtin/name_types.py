"""What kind of thing a name is, from the generic English nouns a text types it with ("the billing-api
service", "Datadog, a monitoring vendor"), and whether a run of capitalised words is a person's name or
a role someone holds ("Head of Engineering")."""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.compiler.builtin.words import (
    CALENDAR,
    COMMON_ZIPF,
    FUNCTION_WORDS,
    PARTICLES,
    RARE_ZIPF,
    WORD,
    common_word,
    shaped,
    zipf,
)

# The noun a text uses for a thing → the entity type it gives (generic English, not a corpus's words).
TYPE_NOUNS = {
    "service": "service", "services": "service", "api": "service", "microservice": "service", "server": "service",
    "daemon": "service", "endpoint": "service", "backend": "service", "worker": "service", "job": "service",
    "tool": "tool", "tools": "tool", "cli": "tool", "command": "tool", "utility": "tool", "binary": "tool",
    "program": "tool", "app": "tool", "application": "tool", "editor": "tool", "compiler": "tool",
    "database": "tool", "db": "tool", "queue": "tool", "broker": "tool", "cache": "tool", "engine": "tool",
    "library": "library", "package": "library", "module": "library", "framework": "library", "sdk": "library",
    "plugin": "library", "extension": "library",
    "company": "company", "vendor": "company", "supplier": "company", "provider": "company", "startup": "company", "firm": "company",
    "corporation": "company", "inc": "company", "ltd": "company", "llc": "company", "gmbh": "company",
    "corp": "company", "foundation": "organisation", "organisation": "organisation", "organization": "organisation",
    "team": "team", "squad": "team", "guild": "team",
    "product": "product", "platform": "product", "feature": "product", "language": "product", "system": "product",
    "person": "person", "engineer": "person", "manager": "person", "developer": "person", "designer": "person",
}
# Nouns for a role a person holds: "Head of Engineering", "Support Engineers" name a role, not someone.
ROLE_NOUNS = frozenset("engineer manager owner admin administrator lead head director designer developer captain "
                       "officer vp president member reviewer maintainer responder assistant coordinator supervisor "
                       "superintendent principal registrar technician analyst specialist consultant".split())
COMPANY_SUFFIX = re.compile(r"^(?:Inc|Ltd|LLC|LLP|GmbH|Corp|Corporation|Limited|AG|SA|plc)\.?$")


def role_phrase(tokens: list[str] | tuple[str, ...]) -> bool:
    """Ordinary words around a role noun: a job title, not a name."""
    roles = [t for t in tokens if t.casefold().removesuffix("s") in ROLE_NOUNS]
    if not roles or not all(t in roles or zipf(t) >= RARE_ZIPF or t.casefold() in PARTICLES for t in tokens):
        return False  # (words English has around it: "Counseling Leads", "Marine Superintendent")
    # the role noun heads the phrase: last ("Support Engineers") or before "of" ("Head of Engineering");
    # "Developer Infrastructure" is named after a role, it is not one
    heads = [k for k, t in enumerate(tokens) if t in roles and (k == len(tokens) - 1 or tokens[k + 1].casefold() == "of")]
    return bool(heads)


@lru_cache(maxsize=16384)
def person_shape(name: str) -> bool:
    """Two or three capitalised alphabetic tokens that are not ordinary words: "Priya Raman". Not an
    acronym among them ("Skyfold CDN", "CKF SOW", "OT VLAN"): a name's parts are written in lower case
    after their capital. (Remembered per name: the rules ask it of the same name about four times.)"""
    tokens = [t for t in name.split() if t.casefold() not in PARTICLES]
    if not 2 <= len(tokens) <= 3:
        return False
    return all(t[:1].isupper() and t.replace("-", "").replace("'", "").isalpha() and not shaped(t)
               and not (len(t) > 1 and t.isupper())
               and not common_word(t) and t.casefold() not in TYPE_NOUNS for t in tokens)


_NAME_PART = re.compile(r"^[A-Z][a-zà-ÿ]+(?:[-'’][A-Z][a-zà-ÿ]+)?$")


def person_like(name: str, placed: bool = False) -> bool:
    """Two or three words shaped like a person's name ("Eric Fritz", "Noah Santschi-Cooney"): each a
    capital and lower-case letters, none a function, type or role word (nor a role's plural: "Site
    Principals", a group an email is sent to), at least one not an ordinary
    English word. Weaker than person_shape (given names are frequent words): only a list of them types.
    `placed`: the text puts the name where a person goes (an email's `From:`), so ordinary words may make
    it all ("Marcus Bell", "Grace Park")."""
    tokens = name.split()
    if not 2 <= len(tokens) <= 3 or not all(_NAME_PART.match(t) for t in tokens):
        return False
    if any(t.casefold() in FUNCTION_WORDS or t.casefold() in TYPE_NOUNS or t.casefold().removesuffix("s") in ROLE_NOUNS
           or (t.casefold() in CALENDAR and (k or zipf(tokens[-1]) >= RARE_ZIPF)) for k, t in enumerate(tokens)):
        return False  # (a given name may be a month's short form before a rare surname: "Jun Takahashi")
    return placed or any(zipf(t) < COMMON_ZIPF for t in tokens)


def type_from_noun(noun: str) -> str:
    return TYPE_NOUNS.get(noun.casefold().strip(".,;:()"), "")


def head_noun_type(phrase: str) -> str:
    """The type a descriptive phrase gives ("a line-oriented search tool" → tool): its first type noun
    among the first words, before any relative clause."""
    words = WORD.findall(phrase.split(" that ", 1)[0].split(" which ", 1)[0].split(" for ", 1)[0])
    for w in words[:6]:
        t = type_from_noun(w)
        if t:
            return "" if t == "person" else t  # "a secrets manager" is no person; people are typed by what they do
    return ""
