"""A source that is not UTF-8 reads the same in search and in the ask screen's excerpt as the compiler reads it
(Windows-1252 when that decodes it cleanly: QA s31 #15's "caf�" left in the raw passages), and the excerpt never
reads through a symlink out of sources/."""

from __future__ import annotations

from pathlib import Path

from kctui.search.passage_index import MAX_SOURCE_BYTES, _text_of
from kctui.ui.screens.ask import source_excerpt


def test_a_latin1_source_is_raw_text_as_the_compiler_reads_it(tmp_path: Path) -> None:
    f = tmp_path / "note.md"
    f.write_bytes("Ops\r\n\r\nThe café wifi runs on a UniFi 6 Lite.\r\n".encode("cp1252"))
    assert _text_of(str(f)) == "Ops\n\nThe café wifi runs on a UniFi 6 Lite.\n"
    assert "▶    3 │ The café wifi" in source_excerpt(tmp_path, "note.md", [3, 3])


def test_a_utf8_file_cut_at_the_cap_is_not_read_as_windows_1252(tmp_path: Path) -> None:
    f = tmp_path / "big.md"
    f.write_bytes(b"a" + "é".encode() * MAX_SOURCE_BYTES)  # the cap falls inside a character's two bytes
    text = _text_of(str(f))
    assert text is not None and "Ã" not in text and text.startswith("aéé")


def test_the_excerpt_never_reads_through_a_symlink_out_of_sources(tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("the root password is hunter2\n", encoding="utf-8")
    root = tmp_path / "sources"
    root.mkdir()
    (root / "link.md").symlink_to(outside)
    for rel in ("link.md", "../secret.txt", str(outside)):
        shown = source_excerpt(root, rel, [1, 1])
        assert "hunter2" not in shown and "not read" in shown
