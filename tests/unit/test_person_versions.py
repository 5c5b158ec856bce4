"""A release number is never typed as a person's version (kctui.compiler.steps.registry.route)."""

from __future__ import annotations


def test_a_person_is_given_no_release_number(tmp_path) -> None:  # noqa: ANN001
    """A release number in a sentence about a person is cited on their page as what the line says, never as
    their version ("Bea wants 24.04 before the intake" states Ubuntu's release, not Bea's)."""
    from tests.helpers.passes import compile_into

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "email.md").write_text("From: Bea Lindqvist <bea@lab.example>\nTo: Hiroshi Tanaka\nSubject: licences\n\n"
                                      "Hi Hiroshi,\n\nGraphPad Prism renews 15 Jan at £1,420/yr.\n\nThanks,\nBea\n")
    (sources / "sync.md").write_text("# Lab sync\n\nThe GPU box runs Ubuntu 22.04. Bea wants 24.04 before the spring intake.\n")
    wiki = compile_into(tmp_path, "job1", None)
    page = next(p for p in (wiki / "entities").glob("*.md") if "title: Bea Lindqvist" in p.read_text())
    text = page.read_text()
    assert "Bea wants 24.04" in text  # cited, as a note
    assert "version: 24.04" not in text
