"""The recurrence rule as a table: which passing mentions two sources make names of, and which unchanged
sources a pass must read again."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import Claim, Entity, Evidence, Extraction
from kctui.compiler.previous.wiki import PageInfo, PreviousWiki
from kctui.compiler.steps.recurrence import (
    MAX_OWN_NAMES_BYTES,
    OWN_NAMES_KEY,
    activate,
    own_names,
    recorded_names,
    recurring,
    to_read_again,
)
from kctui.compiler.steps.registry import Registry


def _ev(path: str) -> Evidence:
    return Evidence(path, 1, 1, "sha256:" + "0" * 64)


def _ex(path: str, own: list[str] = (), once: list[str] = ()) -> Extraction:  # type: ignore[assignment]
    ex = Extraction(path, "sha256:" + "0" * 64, "markdown", path, "note", "general")
    ex.entities = [Entity(n, "", n, (), _ev(path)) for n in own]
    ex.passing = [Entity(n, "", n, (), _ev(path)) for n in once]
    ex.passing_claims = [Claim(n, "note", f"We use {n} here.", "", "fact", "statement", _ev(path)) for n in once]
    return ex


@pytest.mark.parametrize("sources, expected", [
    ({"a": ([], ["Opsgenie"])}, set()),                                   # one source, once: no page
    ({"a": ([], ["Opsgenie"]), "b": ([], ["Opsgenie"])}, {"opsgenie"}),   # two sources, once each
    ({"a": ([], ["Opsgenie"]), "b": (["Opsgenie"], [])}, {"opsgenie"}),   # once here, a page's name there
    ({"a": (["Opsgenie"], []), "b": (["Opsgenie"], [])}, set()),          # names both give pages anyway
    ({"a": ([], ["Valery"]), "b": (["Valery Bugakov"], ["Valery"])}, set()),  # a first name of a longer name
    ({"a": ([], ["Vostrel"]), "b": (["Vostrel VT4400"], ["Vostrel"])}, {"vostrel"}),  # a maker before its model
    ({"a": ([], ["Sentry"]), "b": ([], ["Sentry DSN"])}, set()),          # different names
    ({"a": ([], ["Timescale"]), "b": (["Timescale Cloud"], ["Timescale"])}, {"timescale"}),  # a brand before its product
    ({"a": ([], ["Jira"]), "b": (["Jira Service Management"], ["Jira"])}, {"jira"}),  # (ordinary words after it)
    ({"a": ([], ["Priya"]), "b": (["Priya Nand-Okafor"], ["Priya"])}, set()),  # a given name before a surname
])
def test_recurring_names(sources: dict, expected: set[str]) -> None:
    live = {p: _ex(p, own, once) for p, (own, once) in sources.items()}
    assert recurring(live, {}) == expected


def test_recorded_sources_count_as_the_live_ones_do() -> None:
    live = {"b": _ex("b", once=["Opsgenie"])}
    assert recurring(live, {"a": (set(), {"opsgenie"})}) == {"opsgenie"}
    assert recurring(live, {"a": ({"grafana"}, set())}) == set()


def test_activate_moves_recurring_passing_mentions_with_their_claims() -> None:
    ex = _ex("a", own=["Grafana"], once=["Opsgenie", "Vault"])
    on = activate(ex, {"opsgenie"})
    assert [e.name for e in on.entities] == ["Grafana", "Opsgenie"]
    assert [c.subject for c in on.claims] == ["Opsgenie"]
    assert [e.name for e in on.passing] == ["Opsgenie", "Vault"]  # still recorded as the source's passing mentions
    assert activate(ex, set()) is ex


def _prev_with(source_slug: str, path: str, passing: tuple[str, ...], links: tuple[str, ...] = ()) -> PreviousWiki:
    prev = PreviousWiki()
    recurring = passing if links else ()  # what the previous pass recorded as named elsewhere too
    prev.pages[source_slug] = PageInfo("source", source_slug, path, "", (), ((path, "sha256:1"),), "compiled", links,
                                       "", passing, recurring)
    prev.pages["opsgenie"] = PageInfo("entity", "opsgenie", "Opsgenie", "", (), (), "compiled", ())
    return prev


@pytest.mark.parametrize("linked, live_once, again", [
    ((), ["Opsgenie"], ["a.md"]),             # a second source names it now: read the first one again
    (("opsgenie",), ["Opsgenie"], []),        # it was a page already, still is
    (("opsgenie",), [], ["a.md"]),            # the second mention went: read again to withdraw it
    ((), [], []),                             # nothing changed for it
])
def test_unchanged_sources_read_again(linked: tuple, live_once: list[str], again: list[str]) -> None:
    prev = _prev_with("a-md", "a.md", ("Opsgenie",), linked)
    live = {"b.md": _ex("b.md", once=live_once)}
    assert to_read_again(prev, live, ["a.md"])[0] == again
    # the same answer from the registry's entity index, as the pipeline asks it
    assert to_read_again(prev, live, ["a.md"], Registry(prev).index["entity"].exact) == to_read_again(prev, live, ["a.md"])


def test_a_recurring_name_on_a_page_of_another_title_is_not_read_again_every_pass() -> None:
    """The recorded state is what the pass decided, not which page titles the source links to: a passing
    mention routed to a page with another title ("Postgres" on PostgreSQL) is settled."""
    prev = PreviousWiki()
    prev.pages["a-md"] = PageInfo("source", "a-md", "a.md", "", (), (("a.md", "sha256:1"),), "compiled",
                                  ("postgresql",), "", ("Postgres",), ("Postgres",))
    prev.pages["postgresql"] = PageInfo("entity", "postgresql", "PostgreSQL", "", (), (), "compiled", ())
    live = {"b.md": _ex("b.md", once=["Postgres"])}
    assert to_read_again(prev, live, ["a.md"])[0] == []


def _alias_wiki(own: tuple[str, ...] | None) -> PreviousWiki:
    """vendors.md names "Kwame" (an alias of the page "Kwame Asante", which lists it); thread.md mentions
    "Kwame Asante" once; `own`: what vendors.md's page records as its own names (None: not recorded)."""
    prev = PreviousWiki()
    prev.pages["vendors-md"] = PageInfo("source", "vendors-md", "vendors.md", "", (), (("vendors.md", "sha256:1"),),
                                        "compiled", ("kwame-asante",), own=own)
    prev.pages["thread-md"] = PageInfo("source", "thread-md", "thread.md", "", (), (("thread.md", "sha256:2"),),
                                       "compiled", ("kwame-asante",), "", ("Kwame Asante",), ("Kwame Asante",), own=())
    prev.pages["kwame-asante"] = PageInfo("entity", "kwame-asante", "Kwame Asante", "", ("Kwame",),
                                          (("vendors.md", "sha256:1"), ("thread.md", "sha256:2")), "compiled", ())
    return prev


@pytest.mark.parametrize("own, again, names", [
    (("Kwame", "PRTG"), ["thread.md"], set()),  # recorded: vendors.md names "Kwame", not "Kwame Asante"
    (("Kwame Asante",), [], {"kwame asante"}),  # recorded: it does name it, the mention still recurs
    (None, [], {"kwame asante"}),  # an older pass's page: the entity pages that list it say (an alias's too)
])
def test_an_unchanged_source_counts_for_the_own_names_its_page_records(own, again, names) -> None:  # noqa: ANN001
    """The note that gave "Kwame Asante" its page was removed (no live extraction names it)."""
    prev = _alias_wiki(own)
    assert to_read_again(prev, {}, ["thread.md", "vendors.md"]) == (again, names)


def test_own_names_are_those_of_the_extraction_as_read_less_its_passing_mentions() -> None:
    ex = _ex("a", own=["Grafana", "Kwame"], once=["Opsgenie", "Vault"])
    ex.entities[1] = Entity("Kwame", "person", "Kwame", ("K. Asante",), _ev("a"))
    ex.entities.append(Entity("vault", "", "vault", (), _ev("a")))  # also a passing mention: recorded there
    ex.subject = Entity("Grafana", "", "Grafana", (), _ev("a"))
    assert own_names(ex) == ["Grafana", "K. Asante", "Kwame"]
    assert own_names(activate(ex, {"opsgenie"})) == own_names(ex)  # what a later pass made an entity is not its own


def test_a_source_with_too_many_own_names_records_none_and_is_counted_from_the_entity_pages() -> None:
    """A page's frontmatter is capped (64 KiB): a big table's thousands of names are left out, and the
    source is counted as an older pass's page is (`own` None)."""
    few = _ex("a", own=["Grafana"], once=["Opsgenie"])
    assert recorded_names(few) == {OWN_NAMES_KEY: ["Grafana"], "mentioned_once": ["Opsgenie"]}
    assert recorded_names(_ex("a")) == {OWN_NAMES_KEY: []}
    many = _ex("a", own=[f"Vendor Number {i:05d}" for i in range(MAX_OWN_NAMES_BYTES // 20)])
    assert OWN_NAMES_KEY not in recorded_names(many)
