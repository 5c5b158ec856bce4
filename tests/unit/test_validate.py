"""Every rejection of the staged-tree validation (host.md §7, wiki.md §1), one row each."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kctui.publish.validate import MAX_TYPE_BYTES, InvalidOutput, ValidationReport, validate_staged_tree

PAGE = "---\ntype: Concept\ntitle: Alpha\n---\n# Alpha\n\nBody.\n"


def page(type_line: str) -> str:
    return f"---\n{type_line}\ntitle: T\n---\nbody\n"


def make_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create `files` (relative path -> text or bytes) under `root`/wiki and return that folder."""
    wiki = root / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = wiki / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return wiki


def test_accepts_a_conformant_tree(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {
        "index.md": "---\nokf_version: '0.2'\n---\n# Index\n\n* [Alpha](/concepts/alpha.md) - a page\n",
        "log.md": "# Wiki Log\n\n## 2026-11-29\n\n* **Update**: first pass\n",
        "concepts/alpha.md": PAGE,
        "concepts/index.md": "# Concepts\n",
        "concepts/log.md": "# Concepts Log\n",
        "entities/beta.md": page("type: Entity") + "é ✓\n",
        "assets/diagram.png": b"\x89PNG\r\n\x1a\n\x00\xff",
        "max-type.md": page("type: " + "t" * MAX_TYPE_BYTES),
        "crlf.md": "---\r\ntype: Note\r\n---\r\nbody\r\n",
    })
    report = validate_staged_tree(wiki)
    assert report == ValidationReport(files=9, md_files=8, directories=3, total_bytes=report.total_bytes)
    assert report.total_bytes > 0


def test_accepts_reserved_files_without_type(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {"index.md": "# Index\n", "log.md": "# Log\n"})
    assert validate_staged_tree(wiki).md_files == 2


def test_accepts_root_index_with_empty_frontmatter(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {"index.md": "---\n---\n# Index\n"})
    assert validate_staged_tree(wiki).md_files == 1


def _symlink_root(tmp: Path) -> Path:
    real = make_tree(tmp / "real", {"a.md": PAGE})
    link = tmp / "wiki"
    link.symlink_to(real, target_is_directory=True)
    return link


def _file_root(tmp: Path) -> Path:
    (tmp / "wiki").write_text(PAGE)
    return tmp / "wiki"


def _with(files: dict[str, str | bytes], extra: Callable[[Path], None] | None = None) -> Callable[[Path], Path]:
    def build(tmp: Path) -> Path:
        wiki = make_tree(tmp, files)
        if extra is not None:
            extra(wiki)
        return wiki
    return build


def _symlink_inside(wiki: Path) -> None:
    (wiki / "alias.md").symlink_to(wiki / "a.md")


def _symlink_outside(wiki: Path) -> None:
    outside = wiki.parent / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(PAGE)
    (wiki / "escape").symlink_to(outside, target_is_directory=True)


def _dangling_symlink(wiki: Path) -> None:
    (wiki / "gone.md").symlink_to(wiki / "nowhere.md")


def _fifo(wiki: Path) -> None:
    os.mkfifo(wiki / "pipe.md")


def _socket(wiki: Path) -> None:
    here = os.getcwd()
    os.chdir(wiki)  # AF_UNIX paths are limited to ~108 bytes: bind relative to the folder
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind("sock")
        sock.close()
    finally:
        os.chdir(here)


def _device(wiki: Path) -> None:
    try:
        os.mknod(wiki / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs privileges")


def _non_utf8_name(wiki: Path) -> None:
    with open(os.path.join(os.fsencode(wiki), b"caf\xe9.md"), "w") as fh:
        fh.write(PAGE)


def _long_path(wiki: Path) -> None:
    deep = wiki
    for i in range(6):  # 6 x 201 bytes: past 1,024 while each name stays under NAME_MAX
        deep = deep / (f"{i}" + "d" * 200)
    deep.mkdir(parents=True)
    (deep / "page.md").write_text(PAGE)


def _newline_name(wiki: Path) -> None:
    (wiki / "two\nlines.md").write_text(PAGE)


ALIAS_BOMB = (
    "---\ntype: Concept\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n---\nbody\n"
)

# (case id, builder(tmp_path) -> staged path, offending path expected in the message, words expected)
REJECTIONS: list[tuple[str, Callable[[Path], Path], str, str]] = [
    ("missing", lambda tmp: tmp / "wiki", "wiki", "does not exist"),
    ("root-is-symlink", _symlink_root, "wiki", "symlink"),
    ("root-is-file", _file_root, "wiki", "not a directory"),
    ("symlink-inside", _with({"a.md": PAGE}, _symlink_inside), "alias.md", "symlink"),
    ("symlink-escaping", _with({"a.md": PAGE}, _symlink_outside), "escape", "symlink"),
    ("symlink-dangling", _with({"a.md": PAGE}, _dangling_symlink), "gone.md", "symlink"),
    ("fifo", _with({"a.md": PAGE}, _fifo), "pipe.md", "FIFO"),
    ("socket", _with({"a.md": PAGE}, _socket), "sock", "socket"),
    ("device", _with({"a.md": PAGE}, _device), "null", "device"),
    ("empty-tree", _with({}), "wiki", "no .md page"),
    ("no-md-page", _with({"notes.txt": "x", "img/a.png": b"\x89PNG"}), "wiki", "no .md page"),
    ("uppercase-MD", _with({"a.md": PAGE, "B.MD": PAGE}), "B.MD", "non-lowercase .md"),
    ("mixed-case-Md", _with({"a.md": PAGE, "sub/c.Md": PAGE}), "sub/c.Md", "non-lowercase .md"),
    ("non-utf8-name", _with({"a.md": PAGE}, _non_utf8_name), "caf\\xe9.md", "not valid UTF-8"),
    ("control-char-name", _with({"a.md": PAGE}, _newline_name), "'two\\nlines.md'", "control characters"),
    ("path-over-1024-bytes", _with({"a.md": PAGE}, _long_path), "0ddd", "longer than 1024 bytes"),
    ("non-utf8-content", _with({"a.md": b"---\ntype: Concept\n---\ncaf\xe9\n"}), "a.md", "not valid UTF-8"),
    ("non-utf8-reserved", _with({"a.md": PAGE, "log.md": b"# Log \xff\n"}), "log.md", "not valid UTF-8"),
    ("no-frontmatter", _with({"a.md": "# Just a heading\n"}), "a.md", "no YAML frontmatter"),
    ("bom-before-frontmatter", _with({"a.md": "\ufeff" + PAGE}), "a.md", "no YAML frontmatter"),
    ("unclosed-frontmatter", _with({"a.md": "---\ntype: Concept\n# body\n"}), "a.md", "unclosed frontmatter"),
    ("frontmatter-too-long", _with({"a.md": "---\ntype: Concept\n" + "k: v\n" * 20_000}), "a.md", "not closed within"),
    ("frontmatter-not-mapping", _with({"a.md": "---\n- type\n- Concept\n---\n"}), "a.md", "not a YAML mapping"),
    ("frontmatter-bad-yaml", _with({"a.md": "---\ntype: [unclosed\n---\n"}), "a.md", "invalid YAML"),
    ("frontmatter-unsafe-tag", _with({"a.md": "---\ntype: !!python/name:os.system\n---\n"}), "a.md", "invalid YAML"),
    ("missing-type", _with({"a.md": "---\ntitle: T\n---\n"}), "a.md", "no OKF 'type'"),
    ("type-number", _with({"a.md": page("type: 42")}), "a.md", "must be a YAML string"),
    ("type-bool", _with({"a.md": page("type: yes")}), "a.md", "must be a YAML string"),
    ("type-list", _with({"a.md": page("type: [Concept]")}), "a.md", "must be a YAML string"),
    ("type-null", _with({"a.md": page("type:")}), "a.md", "must be a YAML string"),
    ("type-empty", _with({"a.md": page('type: ""')}), "a.md", "is empty"),
    ("type-whitespace", _with({"a.md": page('type: " Concept"')}), "a.md", "surrounding whitespace"),
    ("type-too-long", _with({"a.md": page("type: " + "é" * 129)}), "a.md", "longer than 256 bytes"),
    ("type-control-char", _with({"a.md": page('type: "Con\\tcept"')}), "a.md", "control characters"),
    ("type-c1-control", _with({"a.md": page('type: "Con\\x85cept"')}), "a.md", "control characters"),
    ("nested-index-frontmatter", _with({"a.md": PAGE, "sub/index.md": "---\nokf_version: '0.2'\n---\n"}),
     "sub/index.md", "reserved file may not have frontmatter"),
    ("log-frontmatter", _with({"a.md": PAGE, "log.md": "---\ntype: Log\n---\n# Log\n"}),
     "log.md", "reserved file may not have frontmatter"),
    ("root-index-extra-key", _with({"index.md": "---\nokf_version: '0.2'\ntype: Index\n---\n"}),
     "index.md", "may only hold okf_version"),
    ("reserved-unclosed", _with({"a.md": PAGE, "index.md": "---\nokf_version: 1\n"}), "index.md", "unclosed"),
    ("alias-bomb", _with({"a.md": PAGE, "bomb.md": ALIAS_BOMB}), "bomb.md", "aliases are not allowed"),
]


@pytest.mark.parametrize(("builder", "where", "words"), [r[1:] for r in REJECTIONS], ids=[r[0] for r in REJECTIONS])
def test_rejects(tmp_path: Path, builder: Callable[[Path], Path], where: str, words: str) -> None:
    staged = builder(tmp_path)
    started = time.monotonic()
    with pytest.raises(InvalidOutput) as caught:
        validate_staged_tree(staged)
    message = str(caught.value)
    assert time.monotonic() - started < 2.0
    assert "\n" not in message
    assert message.startswith(where), message
    assert words in message, message


def test_first_fault_in_byte_order_is_reported(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {"b.md": "no frontmatter\n", "a.md": "---\n"})
    with pytest.raises(InvalidOutput, match=r"^a\.md: "):
        validate_staged_tree(wiki)


def test_huge_page_body_is_streamed(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {"big.md": PAGE + ("line of text é\n" * 400_000)})
    assert validate_staged_tree(wiki).md_files == 1


def test_invalid_utf8_deep_in_a_large_page(tmp_path: Path) -> None:
    body = (PAGE + "x" * 1_000_000).encode() + b"\xc3(" + b"tail"
    wiki = make_tree(tmp_path, {"big.md": body})
    with pytest.raises(InvalidOutput, match=r"big\.md: not valid UTF-8 \(at byte \d+\)"):
        validate_staged_tree(wiki)


def test_rejects_a_mount_point_inside_the_tree(tmp_path: Path) -> None:
    wiki = make_tree(tmp_path, {"a.md": PAGE, "mnt/.keep": ""})
    if os.geteuid() != 0 or shutil.which("mount") is None or subprocess.run(["mount", "-t", "tmpfs", "none", str(wiki / "mnt")],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a filesystem needs privileges")
    try:
        with pytest.raises(InvalidOutput, match=r"^mnt: lies on another filesystem"):
            validate_staged_tree(wiki)
    finally:
        subprocess.run(["umount", str(wiki / "mnt")], check=True)
