"""Document shapes people write, read by their form, not by their headings' words:

- checklists and TODO lists: `- [ ] …` / `- [x] …` items become open / done claims;
- action items: a list item led by an owner (`Priya: …`, `@lena …`, `[ ] Tomás Okafor to …`) becomes an
  action-item claim on the owner;
- decisions: "we chose X over Y because Z", "we decided to …", `Decision: …` become decision claims
  (with the reason, when the sentence gives one) on the thing chosen;
- runbooks: shell commands in code blocks become command claims, cited at their line, on the page of the
  named thing they operate (named in the command, the section heading or the paragraph before).

Each claim's value is a span of its cited line, like every other claim.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, bare, ev
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key
from kctui.core.values import strip_inline

MAX_COMMANDS = 12  # per code block
_BOX = re.compile(r"^\[(?P<mark>[ xX])\]\s+(?P<rest>\S.*)$", re.S)
_OWNER = re.compile(r"^(?:@(?P<handle>[A-Za-z][\w-]{1,38})\s*(?::|—|–|-|\bto\b|\bwill\b)?|(?P<name>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s*(?::|—|–|-|\bto\b|\bwill\b))\s*(?P<task>\S.*)$", re.S)
_CHOSE = re.compile(r"\b(?:we|they|the team|I)\s+(?:have\s+)?(?P<verb>chose|choose|picked|selected|decided on|went with|are going with|settled on|adopted)\s+"
                    r"(?P<x>[^,.;]{1,60}?)(?:\s+(?:over|instead of|rather than)\s+(?P<y>[^,.;]{1,60}?))?(?:,?\s+(?:because|since|as)\s+(?P<why>[^;]{3,200}?))?\.?$", re.I)
_DECIDED = re.compile(r"\b(?:we|they|the team)\s+(?:have\s+)?(?:decided|agreed)\s+(?:to|that)\s+(?P<what>.{3,200}?)\.?$", re.I)
_DECISION_LEAD = re.compile(r"^(?:Decision|Decided|Resolution|Outcome)\s*:\s*(?P<what>\S.{2,250}?)\.?$", re.I)
_DECISION_HINTS = ("chose", "choose", "picked", "selected", "decided", "went with", "going with", "settled on", "adopted",
                   "agreed", "ecision", "esolution", "utcome")
_CMD = re.compile(r"^(?:\$\s+|#\s+)?(?P<cmd>(?:sudo\s+)?[a-z][\w.-]*(?:\s+\S+)+)\s*$")
_NOT_SHELL = re.compile(r"[{};]\s*$|^\s*(?:fn|let|def|class|import|from|return|if|for|while|pub|use|struct|impl|const|var|function)\b|\s=\s|=>|::")


def _subject(text: str, names: dict[str, str]) -> str | None:
    """The first named thing of this document that `text` mentions."""
    if not names:
        return None
    low = text.casefold()
    best: tuple[int, str] | None = None
    for name in _by_length(tuple(sorted(set(names.values())))):
        pos = low.find(name.casefold())
        if pos >= 0 and (pos == 0 or not low[pos - 1].isalnum()) and \
                (pos + len(name) >= len(low) or not low[pos + len(name)].isalnum()):
            if best is None or pos < best[0]:
                best = (pos, name)
    return best[1] if best else None


def first_named(text: str, names: dict[str, str]) -> str | None:
    """The first named thing of the document that `text` mentions."""
    return _subject(text, names)


@lru_cache(maxsize=256)
def _by_length(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


def items(doc: Document, us: list[Unit], names: dict[str, str]) -> tuple[list[Claim], list[tuple[str, str, int]]]:
    """Checklist items and owned action items. Returns the claims and the owners found (name, type, line)."""
    claims: list[Claim] = []
    owners: list[tuple[str, str, int]] = []
    for u in us:
        if u.kind != "item" or u.index != 0:
            continue
        raw = strip_inline(doc.blocks[u.block].text.split("\n")[0])
        box = _BOX.match(raw)
        task = bare(box.group("rest")) if box else u.text
        e = ev(doc, u.first, u.last)
        if len(task) > MAX_STATEMENT_CHARS or len(task) < 3:
            continue
        owned = _owner(task, names)
        owner = owned[0] if owned else None
        if owned:  # (the task after an owner is never blank: its pattern opens it with a non-space)
            owners.append((owned[0], owned[1], u.first))
        subject = owner or _subject(task, names) or doc.title
        if box:
            attribute = "done" if box.group("mark") in "xX" else "to do"
            claims.append(Claim(subject, attribute, task, "", "fact", "statement", e))
        elif owner:
            claims.append(Claim(subject, "action item", task, "", "fact", "statement", e))
    return claims, owners


def _owner(task: str, names: dict[str, str]) -> tuple[str, str] | None:
    """(the owner an action item opens with, "person" or ""): a handle, a name of the document or a
    person's name, followed by what to do ("Priya: write …", "@lena to …")."""
    m = _OWNER.match(task)
    if not m or not (m.group("task")[:1].islower() or m.group("task").startswith("[")):
        return None  # "Deciders: Priya Raman, Lena Vogel" lists names; an action item says what to do
    if _stated(m.group("task")):
        return None  # "Statuspage: renews on 3 March", "Pagerduty: we're at 14 seats": what it is, no task
    who = m.group("handle") or m.group("name")
    if not (m.group("handle") or identity_key(who) in names or nt.person_shape(who)):
        return None
    person = m.group("handle") or nt.person_shape(who) or identity_key(who) not in names
    return names.get(identity_key(who), who), "person" if person else ""


def decisions(doc: Document, us: list[Unit], names: dict[str, str]) -> list[Claim]:
    out: list[Claim] = []
    for u in us:
        text = u.text
        if len(text) > MAX_STATEMENT_CHARS or not any(h in text for h in _DECISION_HINTS):
            continue
        e = ev(doc, u.first, u.last)
        m = _CHOSE.search(text)
        if m:
            chosen = m.group("x").strip()
            subject = _subject(chosen, names) or _subject(text, names) or doc.title
            value = text[m.start("verb"):].rstrip(".")
            out.append(Claim(subject, "decision", value, "", "fact", "statement", e))
            if m.group("why"):
                out.append(Claim(subject, "reason", m.group("why").strip(), "", "fact", "statement", e))
            if m.group("y"):
                out.append(Claim(subject, "alternative", m.group("y").strip(), "", "fact", "statement", e))
            continue
        m = _DECISION_LEAD.match(text) or _DECIDED.search(text)
        if m:
            what = m.group("what").strip()
            subject = _subject(what, names) or doc.title
            out.append(Claim(subject, "decision", what, "", "fact", "statement", e))
    return out


def commands(doc: Document, names: dict[str, str]) -> list[Claim]:
    """Shell commands of code blocks, on the named thing they operate."""
    out: list[Claim] = []
    context = ""
    heading = ""
    for block in doc.blocks:
        if block.kind == "heading":
            heading, context = strip_inline(block.text), ""
            continue
        if block.kind in ("paragraph", "item"):
            context = strip_inline(block.text)
            continue
        if block.kind != "code" or not names:
            continue
        out += _block_commands(doc, block, names, context, heading)
    return out


def _block_commands(doc: Document, block: Block, names: dict[str, str], context: str, heading: str) -> list[Claim]:
    """The commands of one code block that reads as a shell session (up to MAX_COMMANDS), each on the
    thing the line, the paragraph before or the section heading names."""
    lines = block.text.split("\n")
    if not any(_CMD.match(line) and not _NOT_SHELL.search(line) for line in lines[:3]):
        return []
    out: list[Claim] = []
    for offset, line in enumerate(lines):
        m = _CMD.match(line)
        if not m or _NOT_SHELL.search(line) or len(line) > 200:
            continue
        subject = _subject(line, names) or _subject(context, names) or _subject(heading, names)
        if subject is None:
            continue
        number = block.start + 1 + offset
        if number > block.end or number > len(doc.lines):
            break
        out.append(Claim(subject, "command", m.group("cmd").strip(), "", "fact", "statement", ev(doc, number, number)))
        if len(out) >= MAX_COMMANDS:
            break
    return out


_FIRST = re.compile(r"[A-Za-z]+")
STATED_ZIPF = 3.0  # an -s word whose stem English uses this often: a verb's third person ("renews", "runs")


def _stated(task: str) -> bool:
    """What follows a name and a colon states something of it rather than a task for it: it opens
    with a pronoun or another function word ("we're at 14 seats") or a verb's third person ("renews on
    3 March"); a task opens with what to do ("write the runbook", "to book the slot")."""
    m = _FIRST.match(task)
    if not m:
        return False
    low = m.group(0).casefold()
    if low in wd.FUNCTION_WORDS and low != "to":
        return True
    return len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")) and wd.zipf(low[:-1]) >= STATED_ZIPF
