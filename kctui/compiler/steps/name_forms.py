"""Other forms of a page's names, as notes write them (issue 31): a pure function of the pages' names
alone, so the previous pass's pages give the same forms (the mention step compares the two to know
which sources name a page anew).

- **short forms**: a name without its company suffix ("Polar Process" of "Polar Process Ltd"; a suffix
  is a closed class, like a person's titles);
- **head words**: the name a page is titled by before its number or its domain ("PRTG" of "PRTG 500",
  a vendor list's product and licence size; "Bunny" of "Bunny.net", a brand written as its domain, and
  "bunny", as a domain is written in lower case; not of a domain the base writes in lower case,
  "crates.io", "incident.io", "feeder.db": an address or a file, whose first label is a word), where no
  other page has a name that is that word or begins with it: the word alone then says no other thing of
  the base. "Windows 10" beside "Windows 11" (or beside a "Windows" page, or "Windows Server") gives
  neither "Windows". So is the model's designation closing a name of a brand and it ("PL6" of "Printrex
  PL6", "X8" of "Aurelia X8"): "the PL6 keeps dropping off wifi"; and the line and model after a maker's
  word ("PowerEdge T160" of "Dell PowerEdge T160", "U6 Mesh" of "Unifi U6 Mesh": `models.line_and_model`).
- **brand words** (`brand_forms`): a brand's word opening a name of several words ("Grafana" of "Grafana
  Cloud", "SiteGround" of "SiteGround GrowBig", "Northvale" of "Northvale N700 support"): a capitalised
  word English does not have, before a word with a digit, an acronym, a word in lower case or a kind of
  thing (a product, plan or kind of the brand's; never a person's surname: "Daan Visser", "Rhiannon
  Price" give no given name), or written with an inner capital, where no other page shares it. A note
  names the product by its maker's word ("the Northvale quote"; "cancel siteground" in a note written
  in lower case); a word rarer than the frequency list may still be English ("Widget" of "Widget
  Server"), so the mention step finds a brand word only as a name is written: capitalised, or in a
  source written in lower case.
- **short forms of one word** (`brand_forms` too): the brand's word that opens a one-word name ending
  in the acronym of its kind ("Mongo" of "MongoDB", "Timescale" of "TimescaleDB"): teams say "Mongo
  5.0 on the repo box", "Timescale compresses the old chunks". Four letters or more, capitalised,
  letters only, a word English does not have (not "Open" of "OpenAI", "Chat" of "ChatGPT", "Graph" of
  "GraphQL", nor "Rabbit" of "RabbitMQ"), where no other page shares it (a page "Mongo" of its own keeps
  the word); not a word of a name whose tail is a word ("GitHub", "JavaScript", "PowerSchool": "Git",
  "Java" and "Power" are other things), nor of one in lower case first ("iPadOS").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kctui.compiler.builtin import models
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.steps.names_memo import remembered
from kctui.core.slugs import identity_key

# a name and a number ("PRTG 500", "CityLine 311", "Python 3.12"), or a one-label domain ("Bunny.net",
# "Smile.io"): the head is the word before the number or the dot
_NUMBERED = re.compile(r"^(?P<head>[^\W\d_][\w-]*[^\W_])\s+v?\d+(?:\.\d+)*$")
_DOMAIN = re.compile(r"^(?P<head>[^\W\d_][\w-]*[^\W_])\.[a-z]{2,4}$")  # (capitalised: a brand, below)


def short_forms(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> its names without their company suffix."""
    out: dict[str, list[str]] = {}
    for slug in sorted(names):
        have = set(names[slug])
        forms = sorted({" ".join(words[:-1]) for n in have if len(words := n.split()) >= 2
                        and nt.COMPANY_SUFFIX.match(words[-1])} - have)
        if forms:
            out[slug] = forms
    return out


def _brand_head(name: str) -> str:
    """The brand's word opening `name` (the module's last rule), or ""."""
    words = name.split()
    first = words[0] if len(words) >= 2 else ""
    if not (len(first) >= 4 and first.isalpha() and first[:1].isupper() and wd.zipf(first) < wd.RARE_ZIPF):
        return ""
    inner = any(c.isupper() for c in first[1:])
    kind = any(any(c.isdigit() for c in w) or wd.ACRONYM.match(w) or (w[:1].islower() and w not in wd.PARTICLES)
               or w.casefold() in nt.TYPE_NOUNS for w in words[1:])
    return first if inner or kind else ""


_MODEL = re.compile(r"^[^\W\d_][\w-]*[^\W_]\s+(?P<model>[A-Z]{1,4}-?\d{1,4}[A-Za-z]?)$")  # Printrex PL6, Zebra TC52


def _model(name: str) -> str:
    """The model's designation closing a name of a brand and it ("PL6" of "Printrex PL6"), or ""."""
    m = _MODEL.match(name)
    return m.group("model") if m and name[:1].isupper() else ""


def head_forms(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the head words of its names (the module's second rule) and its models' designations
    that no other page shares: no other page has a name that is the word, begins with it, or has it for
    its own head word."""
    return _unique(names, _shaped_heads)


@remembered  # (asked again of the same names by a long-lived worker's next pass)
def brand_forms(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the brand's word opening its names (`_brand_head`, `_kind_tail_head`) where no other
    page shares it: a word rarer than wordfreq's list may still be English ("widget"), so the mention
    step finds it as the note writes a name (capitalised, or in a source written in lower case), not as
    a word."""
    return _unique(names, lambda name: [(h, {h})] if (h := _brand_head(name) or _kind_tail_head(name)) else [])


_KIND_TAIL = re.compile(r"^(?P<head>[A-Z][a-z]{3,})[A-Z]{2,3}$")  # MongoDB, RabbitMQ, PostgreSQL (not: "Postgre")


def _kind_tail_head(name: str) -> str:
    """The brand's word of a one-word name ending in its kind's acronym ("Mongo" of "MongoDB"), or ""."""
    m = _KIND_TAIL.match(name)
    return m.group("head") if m and wd.zipf(m.group("head")) < wd.RARE_ZIPF else ""


def _shaped_heads(name: str) -> list[tuple[str, set[str]]]:
    """(head, its spellings) of a name and a number, a one-label domain, a model's designation."""
    m = _NUMBERED.match(name) or _DOMAIN.match(name)
    if m is not None and (m.re is _NUMBERED or name[:1].isupper()):  # ("crates.io", "feeder.db": an address)
        head = m.group("head")  # (a domain's label as a domain writes it too: "bunny" of "Bunny.net")
        return [(head, {head, head.casefold()} if m.re is _DOMAIN else {head})]
    model = _model(name) or models.line_and_model(name)
    return [(model, {model})] if model else []


def _unique(names: Mapping[str, Iterable[str]], heads_of) -> dict[str, list[str]]:  # noqa: ANN001
    """Page slug -> the heads `heads_of(name)` gives its names that no other page shares."""
    heads: dict[str, dict[str, set[str]]] = {}  # identity key of a head -> slug -> its spellings
    for slug in sorted(names):
        for name in names[slug]:
            for head, spellings in heads_of(name):
                heads.setdefault(identity_key(head), {}).setdefault(slug, set()).update(spellings)
    if not heads:
        return {}
    owners: dict[str, set[str]] = {}  # identity key of a name's first word -> the pages with such a name
    for slug, ns in names.items():
        for name in ns:
            first = identity_key(name).split(" ")[0]
            if first in heads:
                owners.setdefault(first, set()).add(slug)
            whole = identity_key(name)
            if whole in heads:
                owners.setdefault(whole, set()).add(slug)
    out: dict[str, list[str]] = {}
    for key, by_slug in sorted(heads.items()):
        if len(by_slug) != 1 or key in wd.FUNCTION_WORDS or key in wd.CALENDAR or wd.period(key.upper()):
            continue
        (slug, spellings), = by_slug.items()
        if owners.get(key, set()) - {slug}:
            continue  # another page's name is the word or begins with it
        if key not in {identity_key(n) for n in names[slug]}:
            out.setdefault(slug, []).extend(sorted(spellings))
    return out


@remembered
def forms_of(names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the short forms and head words of its names."""
    out = short_forms(names)
    for slug, forms in head_forms(names).items():
        out[slug] = sorted({*out.get(slug, ()), *forms})
    return out
