"""A passing mention another source writes recurs (kctui.compiler.steps.written_names), as a table: which
texts count as writing the name, and the pass's answer full and incremental."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import Entity, Evidence, Extraction
from kctui.compiler.previous.wiki import PageInfo, PreviousWiki
from kctui.compiler.steps import written_names
from kctui.compiler.steps.recurrence import to_read_again
from kctui.compiler.steps.written_names import SourceTexts, passing_by_source, role, source_text, written_elsewhere


class _File:
    def __init__(self, path: str, data: bytes | None, abs_path: str = "", digest: str = "") -> None:
        self.path, self.data, self.abs_path, self.digest = path, data, abs_path, digest


def _texts(texts: dict[str, str]) -> SourceTexts:
    return SourceTexts({p: _File(p, t.encode()) for p, t in texts.items()})


def _once(name: str, *paths: str) -> dict[str, tuple[str, frozenset[str]]]:
    return {name.casefold(): (name, frozenset(paths or ("a.md",)))}


@pytest.mark.parametrize("name, other, expected", [
    ("Vodafone", "- Vodafone business fibre, 500 Mbps", True),      # at an item's start, where a capital says nothing
    ("Vodafone", "Signal on the Vodafone SIM is one bar.", True),   # in a sentence
    ("Vodafone", "We moved off vodafone last year.", False),        # in lower case: another spelling, not counted
    ("Vault", "Turn on FileVault first.", False),                   # inside a longer word
    ("Vault", "Vault-1 is the spare.", False),                      # glued to a hyphen
    ("Veeam B", "Veeam B&R 12 runs nightly.", False),               # glued to an ampersand
    ("Grafana Cloud", "The Grafana dashboards moved.", False),      # one word of two
    ("Grafana Cloud", "Grafana Cloud: $49/mo", True),
    ("opsgenie", "We page through opsgenie.", True),                # a coined word in lower case (lone_names.coined_word)
    ("invoice", "The invoice is out.", False),                      # English has it (no capital): not by its letters
    ("runbook", "The runbook is out.", False),                      # two English words run together
    ("Clinical Informatics Manager", "The Clinical Informatics Manager signs off.", False),  # a post's title
])
def test_written_elsewhere(name: str, other: str, expected: bool) -> None:
    texts = {"a.md": f"Paged via {name} once.", "b.md": other}
    assert written_elsewhere(_once(name), _texts(texts)) == ({name.casefold()} if expected else set())


def test_the_base_writing_the_name_in_lower_case_is_a_word() -> None:
    """"Standup" opens items in two notes, and a third writes "standup": an ordinary word."""
    texts = {"a.md": "Notes. Standup at 9.", "b.md": "- Standup moved", "c.md": "after the standup we"}
    assert written_elsewhere(_once("Standup"), _texts(texts)) == set()
    assert written_elsewhere(_once("Standup"), _texts({p: texts[p] for p in ("a.md", "b.md")})) == {"standup"}


def test_only_other_sources_count() -> None:
    texts = {"a.md": "Paged via Opsgenie. Opsgenie again later.", "b.md": "nothing here"}
    assert written_elsewhere(_once("Opsgenie"), _texts(texts)) == set()
    assert written_elsewhere(_once("Opsgenie", "a.md", "b.md"), _texts({**texts, "b.md": "Opsgenie"})) == set()


@pytest.mark.parametrize("name, expected", [("Clinical Informatics Manager", True), ("Corporate IT", False),
                                            ("Maintenance Control", False), ("Lead", True)])
def test_role(name: str, expected: bool) -> None:
    assert role(name) is expected


def test_the_first_passing_name_is_the_same_in_any_order() -> None:
    a = passing_by_source({"b.md": ["GitHub"], "a.md": ["Github"]})
    b = passing_by_source({"a.md": ["Github"], "b.md": ["GitHub"]})
    assert a == b == {"github": ("Github", frozenset({"a.md", "b.md"}))}


def test_source_text(tmp_path) -> None:  # noqa: ANN001
    (tmp_path / "n.md").write_text("Vodafone fibre")
    assert source_text(_File("n.md", b"kept bytes")) == "kept bytes"
    assert source_text(_File("n.md", None, str(tmp_path / "n.md"))) == "Vodafone fibre"
    assert source_text(_File("gone.md", None, str(tmp_path / "gone.md"))) == ""
    assert source_text(_File("a.pdf", b"%PDF-1.7 Vodafone")) == ""  # a PDF's bytes are not its text


def _ex(path: str, once: list[str]) -> Extraction:
    ex = Extraction(path, "sha256:" + "0" * 64, "markdown", path, "note", "general")
    ex.passing = [Entity(n, "", n, (), Evidence(path, 1, 1, "sha256:" + "0" * 64)) for n in once]
    return ex


def test_a_full_and_an_incremental_pass_agree() -> None:
    """chat.md mentions Vodafone once; vendors.md opens an item with it (no name there by its own reading)."""
    texts = {"chat.md": "the Vodafone signal is one bar", "vendors.md": "- Vodafone business fibre, 500 Mbps"}
    full = to_read_again(PreviousWiki(), {"chat.md": _ex("chat.md", ["Vodafone"]), "vendors.md": _ex("vendors.md", [])},
                         [], texts=_texts(texts))
    assert full == ([], {"vodafone"})
    assert to_read_again(PreviousWiki(), {"chat.md": _ex("chat.md", ["Vodafone"])}, [])[1] == set()  # not without texts
    # vendors.md changed; chat.md is unchanged, its page records the passing mention (not yet recurring)
    prev = PreviousWiki()
    prev.pages["chat-md"] = PageInfo("source", "chat-md", "chat.md", "", (), (("chat.md", "sha256:1"),), "compiled",
                                     (), "", ("Vodafone",), (), own=())
    again, names = to_read_again(prev, {"vendors.md": _ex("vendors.md", [])}, ["chat.md"], texts=_texts(texts))
    assert (again, names) == (["chat.md"], {"vodafone"})


@pytest.mark.parametrize("name", ["Supporting Batch Changes", "Extended Support Release", "Kubernetes Versions"])
def test_a_title_with_an_english_ending_does_not_recur_so(name: str) -> None:
    texts = {"a.md": f"See [{name}](x.md).", "b.md": f"# {name}"}
    assert written_elsewhere(_once(name), _texts(texts)) == set()


@pytest.mark.parametrize("other", ["fn bar(x: &`SomeTrait`)", "```rust\nimpl SomeTrait for Foo {}\n```\nDone."])
def test_code_is_no_writing_of_a_name(other: str) -> None:
    texts = {"a.md": "Take SomeTrait here.", "b.md": other}
    assert written_elsewhere(_once("SomeTrait"), _texts(texts)) == set()


def test_the_words_of_a_source_are_kept_by_its_digest(monkeypatch) -> None:  # noqa: ANN001
    """A long-lived worker's next pass reads an unchanged source again only where a name's words are in it."""
    monkeypatch.setattr(written_names, "_KEPT", {})
    reads: list[str] = []

    def read(source: _File) -> str:
        reads.append(source.path)
        return source_text(source)
    files = {"a.md": _File("a.md", b"Paged via Opsgenie.", digest="1"), "b.md": _File("b.md", b"Nothing.", digest="2")}
    assert written_elsewhere(_once("Opsgenie"), SourceTexts(files, read)) == set()
    assert sorted(reads) == ["a.md", "b.md"]
    reads.clear()
    files["c.md"] = _File("c.md", b"- Opsgenie: 5 seats", digest="3")
    assert written_elsewhere(_once("Opsgenie"), SourceTexts(files, read)) == {"opsgenie"}
    assert reads == ["c.md"]  # (a.md is the name's own source; b.md lacks its words)
