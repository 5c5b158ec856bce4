"""The schema file's parser (kctui.compiler.schema), table-tested: classes, sections, scoped parts,
what each source's prompt carries, and the one-line refusals."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import Entity, Extraction
from kctui.compiler.schema import (
    DEFAULT,
    SchemaError,
    classes_version,
    parse_schema,
    restrict_classes,
    schema_version,
)

ALL = {"source", "concept", "entity"}


@pytest.mark.parametrize("text, classes, sections", [
    ("no headings at all\n", ALL, {}),
    ("## Rules\nBe brief.\n", ALL, {}),
    ("## Concepts\n", {"source", "concept"}, {}),
    ("## entity pages\nSections: Description | Sources\n", {"source", "entity"},
     {"entity": ("Description", "Sources")}),
    ("## Source\n- **Sections:** Summary; Key Claims\n## Concept\nSections: Definition, Why It Matters\n",
     {"source", "concept"}, {"source": ("Summary", "Key Claims"), "concept": ("Definition", "Why It Matters")}),
    ("```\n## Entities\n```\n## Concepts\n", {"source", "concept"}, {}),  # a heading in a code block is text
    ("## Rules\nSections: not a class's\n", ALL, {}),
])
def test_classes_and_sections(text: str, classes: set[str], sections: dict) -> None:
    s = parse_schema(text)
    assert s.classes == classes and s.sections == sections


@pytest.mark.parametrize("path, carried", [
    ("runbooks/restart.md", ["GEN", "RUN"]),
    ("runbooks/db/failover.md", ["GEN", "RUN"]),
    ("docs/a.md", ["GEN", "DOCS"]),
    ("docs/x/y/z.md", ["GEN", "DOCS"]),
    ("notes/a.md", ["GEN"]),
])
def test_scoped_sections_go_only_with_their_sources(path: str, carried: list[str]) -> None:
    s = parse_schema("GEN\n\n## For `runbooks/**`\nRUN\n\n## For docs/**/*.md\nDOCS\n\n## Rules\nGEN-TOO\n")
    text = s.text_for(path)
    assert [m for m in ("GEN", "RUN", "DOCS") if m in text.replace("GEN-TOO", "")] == carried
    assert "GEN-TOO" in text  # a later general heading is general text


@pytest.mark.parametrize("text, why", [
    ("## Entities\n## entity pages\n", "line 2: the entity class is described twice"),
    ("## Entities\nSections:   \n", "line 2: an empty `Sections:` line"),
    ("## For ``\nx\n", "line 1: `## For` needs a glob"),
    ("## Concepts\nSections: " + "x" * 81 + "\n", "longer than 80 characters"),
])
def test_unusable_schemas_are_refused_in_one_line(text: str, why: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_schema(text, "CLAUDE.md")
    assert str(info.value).startswith("CLAUDE.md: ") and why in str(info.value) and "\n" not in str(info.value)


def test_versions_and_the_default() -> None:
    custom = parse_schema("## Sources\n## Entities\n", "SCHEMA.md")
    assert schema_version("kctui/1 llm:m", DEFAULT) == "kctui/1 llm:m"
    assert schema_version("kctui/1 llm:m", custom) == f"kctui/1 llm:m schema-{custom.digest[:12]}"
    assert classes_version("kctui/1 builtin", DEFAULT) == "kctui/1 builtin"
    assert classes_version("kctui/1 builtin", custom) == "kctui/1 builtin classes-source+entity"
    assert DEFAULT.classes == ALL and set(DEFAULT.sections) == ALL and DEFAULT.describe() == "embedded default"


def test_restrict_classes_drops_only_the_missing_classes() -> None:
    ex = Extraction("a.md", "d", "markdown", "A", "note", "", entities=[Entity("Acme", "company", "Acme", (), None)])
    ex.subject = ex.entities[0]
    kept = restrict_classes(ex, parse_schema("## Entities\n"))
    assert kept.entities and kept.subject is not None
    gone = restrict_classes(ex, parse_schema("## Concepts\n"))
    assert gone.entities == [] and gone.subject is None
