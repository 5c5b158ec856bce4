"""The README and the pages of docs/ say only what is true: every `kctui …` command they name (in a code
span or a code block) is a command of the click tree in kctui.cli, every `--flag` named with it is an
option of that command or of a group above it, every relative link `[x](path#anchor)` reaches a file
(and a heading of it, by GitHub's anchor rules), and the README stays short (≤ 12 KB) with the two
commands first. Placeholders in capitals (WORKSPACE, KB, ID …) are arguments and are not checked."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from kctui.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
README_LIMIT = 12 * 1024
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
SUBJECTS = ("cli", "app", "review-and-trust", "policy", "protocol", "models", "mcp", "layout-on-disk", "benchmarks")
FIRST_COMMANDS = [
    'python -m pip install -e ".[dev]" && kctui demo',
    'python -m pip install -e ".[dev]" && python -m pytest',
    "ruff check .",
]

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
KCTUI = re.compile(r"(?<![\w/.\-$\"'])kctui(?![\w/.\-:\"'])")
SHELL_BREAK = re.compile(r"&&|\|\||;|\s\|\s|\s#|\$\(")
COMMAND_WORD = re.compile(r"[a-z][a-z0-9-]*")
FLAG = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


class Markdown:
    """One Markdown text split the way the checks need it: the lines of its fenced code blocks, the
    contents of its code spans, and its other lines (`prose`, code spans blanked; `raw`, as written)."""

    def __init__(self, text: str) -> None:
        self.code: list[str] = []
        self.spans: list[str] = []
        self.prose: list[str] = []
        self.raw: list[str] = []
        fence = None
        for line in text.splitlines():
            opening = FENCE.match(line)
            if fence is None and opening:
                fence = opening.group(1)
            elif fence is not None:
                if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                    fence = None
                else:
                    self.code.append(line)
            else:
                self.spans.extend(m.group(2) for m in CODE_SPAN.finditer(line))
                self.prose.append(CODE_SPAN.sub("", line))
                self.raw.append(line)

    def invocations(self) -> list[str]:
        """Every `kctui …` as written: from `kctui` to the end of its code span or shell command."""
        found = []
        for segment in [s.replace("\\|", "|") for s in self.spans] + [SHELL_BREAK.split(c)[0] for c in self.code]:
            starts = [m.start() for m in KCTUI.finditer(segment)]
            for n, start in enumerate(starts):
                end = starts[n + 1] if n + 1 < len(starts) else len(segment)
                found.append(segment[start:end].strip())
        return found

    def headings(self) -> list[str]:
        return [m.group(2) for m in map(HEADING.match, self.raw) if m]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (links as their text, no code or emphasis marks),
    lower case, every character but letters, digits, `_`, `-` and spaces dropped, spaces as `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in Markdown(page.read_text(encoding="utf-8")).headings():
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def options(command: click.Command) -> set[str]:
    return {name for p in command.params if isinstance(p, click.Option) for name in (*p.opts, *p.secondary_opts)}


def check_invocation(invocation: str, root: click.Group = main) -> list[str]:
    """What is wrong with one `kctui …` as the docs write it: an unknown command on its path (a word of
    `a|b` alternatives is checked for each), or a flag that neither the command nor a group above it has."""
    tokens = invocation.split()[1:]
    chains: list[tuple[str, list[click.Command]]] = [("kctui", [root])]
    problems = []
    i = 0
    while i < len(tokens) and isinstance(chains[0][1][-1], click.Group):
        words = tokens[i].split("|")
        if not all(COMMAND_WORD.fullmatch(w) for w in words):
            break
        longer = []
        for name, chain in chains:
            for word in words:
                sub = chain[-1].commands.get(word)  # type: ignore[attr-defined]
                if sub is None:
                    problems.append(f"`{name} {word}` is not a command (in `{invocation}`)")
                else:
                    longer.append((f"{name} {word}", [*chain, sub]))
        if not longer:
            return problems
        chains = longer
        i += 1
    help_names = set(root.context_settings.get("help_option_names", ["--help"]))
    rest = " ".join(tokens[i:])
    for name, chain in chains:
        known = help_names.union(*(options(c) for c in chain))
        problems += [f"`{name}` has no option {flag} (in `{invocation}`)"
                     for flag in FLAG.findall(rest) if flag not in known]
    return problems


def check_links(page: Path, text: str | None = None) -> list[str]:
    """Every relative link of `page` (outside code) reaches a file, and its #anchor a heading there."""
    problems = []
    for line in Markdown(page.read_text(encoding="utf-8") if text is None else text).prose:
        for _, target in LINK.findall(line):
            if SCHEME.match(target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                problems.append(f"{target}: no such file {linked}")
            elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
                problems.append(f"{target}: no heading with the anchor #{anchor} in {linked.name}")
    return problems


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_kctui_command_and_flag_a_page_names_exists(page: Path) -> None:
    invocations = Markdown(page.read_text(encoding="utf-8")).invocations()
    problems = [p for inv in invocations for p in check_invocation(inv)]
    assert not problems, f"{_name(page)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_resolves(page: Path) -> None:
    problems = check_links(page)
    assert not problems, f"{_name(page)}:\n" + "\n".join(problems)


def test_the_readme_is_short_with_the_two_commands_first() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; at most {README_LIMIT:,} (move detail to docs/)"
    assert Markdown(README.read_text(encoding="utf-8")).code[:3] == FIRST_COMMANDS


def test_every_subject_has_its_page_and_the_readme_links_every_page() -> None:
    linked = {target.partition("#")[0] for line in Markdown(README.read_text(encoding="utf-8")).prose
              for _, target in LINK.findall(line)}
    pages = {f"docs/{p.name}" for p in PAGES[1:]}
    assert {f"docs/{s}.md" for s in SUBJECTS} <= pages
    assert pages <= linked, f"docs pages the README does not link to: {sorted(pages - linked)}"


# The checks themselves find what is wrong (so a passing run means something).

@pytest.mark.parametrize(("invocation", "wrong"), [
    ("kctui compile WORKSPACE KB --wait --json", []),
    ("kctui review approve|reject --job JOB | --source PATH [--yes]", []),
    ("kctui kb policy WORKSPACE KB --schedule-always|--schedule-changed-only -h", []),
    ("kctui --version", []),
    ("kctui compiles WORKSPACE KB", ["`kctui compiles` is not a command"]),
    ("kctui kb destroy WORKSPACE KB", ["`kctui kb destroy` is not a command"]),
    ("kctui compile WORKSPACE KB --no-such-flag", ["`kctui compile` has no option --no-such-flag"]),
    ("kctui review approve|resolve --yes", ["`kctui review resolve` has no option --yes"]),
])
def test_the_command_check_finds_unknown_commands_and_flags(invocation: str, wrong: list[str]) -> None:
    problems = check_invocation(invocation)
    assert len(problems) == len(wrong) and all(p.startswith(w) for p, w in zip(problems, wrong)), problems


def test_invocations_are_found_in_code_spans_and_blocks_only() -> None:
    text = ("kctui in prose `kctui status --json`, `kctui/core/queue.py`, `kctui: error: …`\n"
            "| `kctui resolve ID --use-new\\|--keep` |\n"
            "```\n$ kctui jobs --limit 3 | head  # not --this\nkctui-dark\n```\n")
    assert Markdown(text).invocations() == ["kctui status --json", "kctui resolve ID --use-new|--keep",
                                            "kctui jobs --limit 3"]


def test_the_link_check_finds_missing_files_and_headings() -> None:
    page = ROOT / "docs" / "cli.md"
    text = ("[ok](../README.md#quick-start) [ok](#review) [ext](https://example.org/x) `[code](nowhere.md)`\n"
            "[gone](no-such-page.md) [bad anchor](app.md#no-such-heading)\n")
    assert [p.split(":")[0] for p in check_links(page, text)] == ["no-such-page.md", "app.md#no-such-heading"]


def test_anchors_follow_github_rules() -> None:
    assert slug("The schema file: `<base>/SCHEMA.md`") == "the-schema-file-baseschemamd"
    assert slug("A real model: `tests/integration/test_llm_real_model.py`") == \
        "a-real-model-testsintegrationtest_llm_real_modelpy"
    assert slug("Worked example: from notes to a reviewed change") == "worked-example-from-notes-to-a-reviewed-change"
