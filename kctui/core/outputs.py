"""Kept answers: the output pages under `wiki/outputs/` (the third layer, built from the compiled pages;
never read back as evidence). Pure: the page's text from what was asked and answered, its citations read
back, and whether it has gone stale — a cited source line changed (its recorded digest no longer matches)
or a cited page no longer holds the citation it was kept for (tests/unit/test_outputs.py).

A citation of a kept answer records the item it came from, the page (`entities/x.md`, "" for raw
evidence), the statement's text, the source and lines it cites and the sha256 of those lines as they
were when the answer was kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from kctui.core.slugs import short_hash, slugify

OUTPUTS_DIR = "outputs"
OUTPUT_TYPE = "Output"
STALE = "stale"
CURRENT = "current"
NOT_EVIDENCE = "Kept answer: an output built from the compiled pages, never read back as evidence."


def lines_of(text: str, start: int, end: int) -> str | None:
    """Lines `start`..`end` (1-based, inclusive) of a source's text; None when the file is shorter."""
    lines = text.split("\n")
    if start < 1 or end < start or end > len(lines):
        return None
    return "\n".join(lines[start - 1:end])


def lines_digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def output_path(question: str, asked_at_us: int) -> str:
    """`outputs/<slug of the question>-<short hash>.md`: one file per kept answer."""
    slug = slugify(question, max_bytes=80) or "answer"
    return f"{OUTPUTS_DIR}/{slug}-{short_hash(f'{question}|{asked_at_us}')}.md"


def _link(path: str) -> str:
    return f"[{path}](/{path[len('wiki/'):]})" if path.startswith("wiki/") else f"`{path}`"


def render_output(*, question: str, answer: str, mode: str, verified: bool, citations: list[dict[str, Any]],
                  flags: list[dict[str, Any]], asked_by: str, asked_at: str, generation: str, model: str) -> str:
    """The output page. `citations`: {item, page, text, source, lines, digest, verified} each."""
    fm: dict[str, Any] = {
        "type": OUTPUT_TYPE, "title": question[:200], "question": question, "mode": mode, "verified": verified,
        "asked_by": asked_by, "asked_at": asked_at, "generation": generation, "model": model,
        "compile_status": CURRENT, "citations": citations,
    }
    how = "a model's answer, its citations checked" if mode == "model" else "extracted from the base, not written"
    body = [f"# {question}", "", f"> {NOT_EVIDENCE}", f"> Asked by {asked_by} at {asked_at} against generation "
            f"{generation}; {how}{'' if verified or mode != 'model' else '; NOT VERIFIED'}.", "", answer.strip(), ""]
    if flags:
        body += ["## Flags", ""] + [f"* ⚠ {f['status']}: {_link(f['page'])} — {f['why']}" for f in flags] + [""]
    body += ["## Citations", ""]
    for n, c in enumerate(citations, 1):
        lines = c.get("lines") or []
        where = f"sources/{c['source']}" + (f" L{lines[0]}-L{lines[1]}" if lines else "") if c.get("source") else ""
        page = _link("wiki/" + c["page"]) + " " if c.get("page") else ""
        mark = "✓ verified" if c.get("verified") else "✗ unverified"
        body.append(f"{n}. {page}{where} — “{c.get('text', '')}” ({mark})")
    from kctui.core.frontmatter import dump_yaml  # noqa: PLC0415 - YAML loads when an answer is written

    return f"---\n{dump_yaml(fm)}---\n\n" + "\n".join(body) + "\n"


def read_output(text: str) -> tuple[dict[str, Any], str] | None:
    """(frontmatter, body) of an output page; None when it is not one."""
    try:
        from kctui.core.frontmatter import parse_document  # noqa: PLC0415 - and when one is read

        data, body, _ = parse_document(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != OUTPUT_TYPE:
        return None
    return data, body


def stale_reasons(fm: dict[str, Any], source_text: Callable[[str], str | None],
                  page_text: Callable[[str], str | None]) -> list[str]:
    """Why a kept answer no longer stands: each cited source line range whose text changed or is gone,
    and each cited page that is gone or no longer carries the citation (`^[source:La-Lb]`)."""
    out: list[str] = []
    for c in fm.get("citations") or []:
        if not isinstance(c, dict):
            continue
        source, lines, digest = str(c.get("source") or ""), c.get("lines"), str(c.get("digest") or "")
        if source and isinstance(lines, list) and len(lines) == 2 and digest:
            text = source_text(source)
            now = None if text is None else lines_of(text, int(lines[0]), int(lines[1]))
            if now is None or lines_digest(now) != digest:
                out.append(f"sources/{source} L{lines[0]}-L{lines[1]} changed")
                continue
        page = str(c.get("page") or "")
        if page:
            ptext = page_text(page)
            cite = c.get("citation") or ""
            if ptext is None:
                out.append(f"wiki/{page} is gone")
            elif cite and cite not in ptext:
                out.append(f"wiki/{page} no longer cites {cite}")
    return list(dict.fromkeys(out))


def mark_stale(text: str, reasons: list[str], at: str) -> str:
    """The output page marked stale: its status, since when and why, and a line at the top of its body."""
    got = read_output(text)
    if got is None:
        return text
    fm, body = got
    fm = dict(fm, compile_status=STALE, stale_since=at, stale_why=reasons[:8])
    note = f"> **⚠ stale** since {at}: " + "; ".join(reasons[:3]) + " — ask again before relying on it."
    from kctui.core.frontmatter import dump_yaml  # noqa: PLC0415

    return f"---\n{dump_yaml(fm)}---\n\n{note}\n\n{body.lstrip(chr(10))}"
