"""The short-form rule (kctui.compiler.steps.short_names): which short form of a company's name stands for
the one long name of a base, table-tested as a pure function of the base's names."""

from __future__ import annotations

import pytest

from kctui.compiler.extraction import Entity, Extraction
from kctui.compiler.steps.short_names import companies_of, fold_map
from kctui.core.claims import Evidence

FIRMS = ["Veltrix Systems", "Norrland Compute", "Pinnacle Card Services", "Bell & Tanaka LLP", "Halvard AS",
         "SchedWorks Consulting"]


@pytest.mark.parametrize(("short", "companies", "names", "long"), [
    ("Veltrix", FIRMS, [], "Veltrix Systems"),  # a tail of one ordinary word
    ("veltrix", FIRMS, [], "Veltrix Systems"),  # (by its identity key)
    ("Norrland", FIRMS, [], "Norrland Compute"),  # ordinary, if not among the most frequent
    ("Pinnacle", FIRMS, [], "Pinnacle Card Services"),  # a tail of several ordinary words
    ("Pinnacle Card", FIRMS, [], "Pinnacle Card Services"),
    ("Bell & Tanaka", FIRMS, [], "Bell & Tanaka LLP"),  # a legal suffix
    ("Bell", FIRMS, [], None),  # "Tanaka" is no ordinary word
    ("Halvard", FIRMS, [], "Halvard AS"),
    ("SchedWorks", FIRMS, [], "SchedWorks Consulting"),  # the short form may be a coined name
    ("Pinnacle", FIRMS, ["Pinnacle NOC"], "Pinnacle Card Services"),  # an acronym's tail is no candidate
    ("Veltrix", FIRMS, ["Veltrix Cloud"], None),  # two candidates: no fold
    ("Veltrix", FIRMS, ["Veltrix renewal"], "Veltrix Systems"),  # a tail in lower case is none
    ("RDS", ["RDS PostgreSQL"], [], None),  # a tail with an inner capital is a name
    ("Brightmart", ["Brightmart AS2"], [], None),  # a tail with a digit is a name
    ("Eastgate", ["Eastgate UniFi"], [], None),
    ("Corvex", ["Corvex Networks"], ["Networks"], None),  # a tail word the base names as a thing of its own
    ("Grafana", FIRMS, ["Grafana Cloud"], None),  # only a name typed as a company is a long name
    ("Grafana", ["Grafana Labs"], ["Grafana Cloud"], None),  # an offering's name is a candidate too
    ("Northgate", ["Northgate Networks"], ["Northgate Tech"], None),
    ("Open", ["Open Dental Software"], [], None),  # a short form of ordinary words stands for many things
    ("Kestrel Software", ["Kestrel Software Ltd"], [], "Kestrel Software Ltd"),
    ("The", ["The Data Group"], [], None),  # a function word stands for nothing
    ("Tessellate", ["Tessellate Risk"], ["Tessellate Watch"], None),
])
def test_a_short_form_stands_for_the_one_company_it_opens(short: str, companies: list[str], names: list[str],
                                                         long: str | None) -> None:
    assert fold_map(companies, names).get(short.casefold()) == long


def test_a_persons_one_word_name_is_theirs() -> None:
    assert fold_map(["Orla Analytics"], []).get("orla") == "Orla Analytics"
    assert fold_map(["Orla Analytics"], [], people=["orla"]).get("orla") is None


def _entity(name: str, etype: str = "") -> Entity:
    return Entity(name, etype, name, (), Evidence("a.md", 1, 1, "sha256:1"))


def test_a_source_records_the_names_of_several_words_it_types_as_a_company() -> None:
    ex = Extraction("a.md", "sha256:1", "markdown", "A", "note", "general", entities=[_entity("Veltrix Systems", "company"), _entity("Veltrix", "company"),
                                             _entity("Grafana Cloud", "product"), _entity("Ada Lind", "person")])
    assert companies_of(ex) == ["Veltrix Systems"]


@pytest.mark.parametrize("long", ["Grafana Cloud", "Weave Pro", "Starlink Business", "Okapi Framework", "Acme Server",
                                  "Garmin Connect Developer Program"])
def test_a_name_of_an_offering_or_a_product_is_no_firms_long_name(long: str) -> None:
    assert fold_map([long], []) == {}

