"""Every statement reaches the pages of the names it contains (issue 31, recall first).

A source that names a thing with a page of its own — made from this source or from another — says something about it
in each sentence, list item and table row that names it: "check Piano status page" in a runbook belongs on Piano's
page even when the runbook's own reading never took "Piano" for a name. After the match step has routed every source
(so every page of the pass exists), each statement of a source (`Extraction.statements`) that contains the title or
an alias of an entity page that stands — a page some source feeds a name, a claim or a term of its own — is attached
to that page as a cited note, and so is a statement that is about the page by its place (`reaches`: the thing its
section or the source's title names first, the subject of the sentence it continues) unless it opens with a name of
another thing (kctui.compiler.steps.statement_subject: "Also: Grafana Cloud's renewal is due 31 Jan." in an email on
Checkly is Grafana Cloud's, not Checkly's); at most `per_source` of one source on one page that hold no value and as
many more that hold one, unless the page holds that statement of that source whole already (`said`). A mention never
keeps a page standing: a source's page links only the pages it feeds, so when the last of those goes, the page goes
with the notes that only mention it. How a name is found in a statement: kctui.compiler.steps.name_finder; which
pages a statement is about: kctui.compiler.steps.statement_pages.

Incremental = full: the pages a statement reaches depend on the pages that stand in the pass, so an unchanged source
is read again (from the extraction cache) when its text holds a name no page that stood before had (a page or an
alias made in this pass: `named_anew`), or when a page it only mentioned stands no more; what it attached to pages
that still stand is on them already (mention_pass).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kctui.compiler.builtin.stated_values import value_spans
from kctui.compiler.extraction import Extraction
from kctui.compiler.steps.field_headers import opening_record
from kctui.compiler.steps.name_finder import NameFinder, written_words
from kctui.compiler.steps.registry import Contribution
from kctui.compiler.steps.said import not_within, said
from kctui.compiler.steps.statement_pages import reaches, title_subjects
from kctui.compiler.steps.title_record import title_record
from kctui.core.claims import Claim

MENTION_ORIGIN = "mention"  # a statement attached to the page of a name it contains
PER_SOURCE = 12  # at most this many statements of one source on one page, and fewer from a long one:
SOURCE_STATEMENTS = 400  # PER_SOURCE x this / its statements, at least MIN_PER_SOURCE (what a long
MIN_PER_SOURCE = 3  # document says in passing of a name it uses everywhere is its source page's)

def names_of(slugs: Iterable[str], titles: Mapping[str, str], aliases: Mapping[str, Iterable[str]],
             routed: Iterable[Mapping[str, object]]) -> dict[str, list[str]]:
    """Entity page slug -> its title and aliases: the previous wiki's (`aliases` by slug) and those the
    sources routed in this pass give it."""
    out = {slug: [titles[slug], *aliases.get(slug, ())] for slug in slugs}
    for contributions in routed:
        for slug, contribution in contributions.items():
            if slug in out:
                out[slug] += sorted(getattr(contribution, "aliases", ()))
    return out


def attach(ex: Extraction, fed: dict[str, Contribution], finder: NameFinder, titles: Mapping[str, str]) -> None:
    """Each statement of `ex` as a note on the entity pages it reaches (`reaches`): on one page at most `per_source`
    of those that state no value and as many of those that state one, except on the page of what the source is
    about (what its title names first, the record its opening header names), where every stated fact goes (no fact
    of its own subject is said in passing); `fed`: the pages this source feeds, slug -> Contribution."""
    counts: dict[tuple[bool, str], int] = {}
    cap = per_source(len(ex.statements))
    subjects, record = title_subjects(ex.title, finder, ex.statements), opening_record(ex.statements, finder.named)
    record = record or title_record(ex.title, finder.places, written_words, subjects[0])  # ("… — INC-2291")
    own = {*subjects, record} - {""}
    for statement, found in reaches(ex, finder, subjects, record):
        if not found or _bare_lead(statement.value, finder):
            continue
        valued = bool(value_spans(statement.value))  # (a stated fact: counted apart, `cap` of them too)
        ev = statement.evidence(ex)
        for slug in sorted(found):
            if counts.get((valued, slug), 0) >= cap and not (valued and slug in own):
                continue
            contribution = fed.get(slug)
            if contribution is not None and said(statement.value, ev, contribution.claims):
                continue  # the page has this statement of this source already
            counts[valued, slug] = counts.get((valued, slug), 0) + 1
            if contribution is None:
                contribution = fed[slug] = Contribution()
            contribution.claims[:] = not_within(statement.value, ev, contribution.claims)
            contribution.claims.append(Claim(titles[slug], "note", statement.value, "", "fact", MENTION_ORIGIN, ev))
            contribution.mentions = []  # the cited sentences say what the source says; no bare mention line


def _bare_lead(text: str, finder: NameFinder) -> bool:
    """A bold line that is a name alone ("**Ines**" over her items) leads them: no note of its own on the page."""
    inner = text.strip()
    return len(inner) > 4 and inner[:2] in ("**", "__") and inner[-2:] == inner[:2] and bool(finder.named(inner[2:-2]))




def per_source(statements: int) -> int:
    """How many statements of a source with this many reach one page."""
    return max(MIN_PER_SOURCE, min(PER_SOURCE, SOURCE_STATEMENTS // max(statements, 1)))
