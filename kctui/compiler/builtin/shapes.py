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
from kctui.compiler.builtin.needles import Needles
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, as_written, bare, ev, joined
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
# (the word may carry who or where in brackets or a short phrase: "Decision (Greg, w/ Dave's advice):",
# "Decision at the retro:", "decision for ADR-011 then:"; what is decided runs to its sentence's end)
_DECISION_LEAD = re.compile(r"(?:^|(?<=[\s→>(:,*_]))(?:decision|decided|resolution|resolved|outcome|agreed|approved)"
                            r"(?:\s*\([^()\n]{1,60}\)|\s+(?:at|in|for|from|of|by|on)\s+[\w' -]{1,30}?)?"
                            r"(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(?P<what>[^\s:].{2,250}?)(?:\.?$|(?=\.\s+\S))", re.I)
# a choice stated without the verbs above: "we go with option 2", "going with B", "9 it is", "we'll use X", "approved"
_CHOICE = re.compile(r"\b(?P<verb>(?:go|goes|going|gone|went)\s+(?:with|w(?=/))|(?:will|'ll|’ll)\s+(?:use|take|go for)|decided|agreed|approved|signed off)\b"
                     r"|^(?P<x>[^,.;]{1,40}?)\s+it\s+is\s*[.!]*$", re.I)  # ("9 it is.": the words close the sentence)
# a date or a plan moved: "moves from 31 March to 30 April", "slipped to tue 10 mar", "pushed to Q2"
_MOVED = re.compile(r"\b(?P<verb>(?:moves?|moved|moving|slips?|slipped|pushed|postponed|rescheduled|deferred|brought forward|bumped))"
                    r"(?:\s+(?:again|back|out))?\s+(?:from\s+(?P<y>[^,;()]{2,30}?)\s+)?(?:to|until|till)\s+(?P<x>[^,;()]{2,40})", re.I)
# the same, written as the change of a value: "moving nov 19 -> dec 3", "was Sat 21 Nov, now Sat 28 Nov"
_MOVED_ARROW = re.compile(r"\b(?P<verb>mov\w*|slip\w*|push\w*|postpon\w*|reschedul\w*)\W+(?:from\s+)?(?P<y>[^,;()]{2,24}?)\s*(?:->|→)\s*(?P<x>[^,;()]{2,30})", re.I)
_WAS_NOW = re.compile(r"\b(?P<verb>was)\s+(?P<y>[^,;()]{2,30}?),?\s+now\s+(?P<x>[^,;()]{2,40})", re.I)
# words the phrasings above cannot do without, read in the sentence casefolded with its spaces single
# ("chose", "moved", "go with", "now" between spaces, "it is"): a sentence with none is not read by them
# ("with", "use" or "now" alone had sent nearly every sentence through all seven; "postponing" is left
# to other words, as it was)
_DECISION_WORDS = ("chose", "choose", "picked", "selected", "decided", "settled on", "adopted", "agreed", "approved",
                   "signed off", "decision", "resolution", "resolved", "outcome", "go with", "goes with", "going with", "went with",
                   "go w/", "going w/", "gone w/", "went w/",
                   "ll use", "ll take", "ll go for", " it is", " now ", "mov", "slip", "push", "postpone", "reschedul",
                   "deferred", "brought forward", "bumped")
_DECISION_HELD = Needles([_DECISION_WORDS])
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
        # the value as written (code and emphasis marks kept: a value is a span of its line), read bare
        value = box.group("rest").strip() if box else u.plain
        task = bare(value)
        e = ev(doc, u.first, u.last)
        if len(task) > MAX_STATEMENT_CHARS or len(task) < 3:
            continue
        owned = _owner(task, names, boxed=box is not None)
        owner = owned[0] if owned else None
        if owned:  # (the task after an owner is never blank: its pattern opens it with a non-space)
            owners.append((owned[0], owned[1], u.first))
        subject = owner or _subject(task, names) or doc.title
        if box:
            attribute = "done" if box.group("mark") in "xX" else "to do"
            claims.append(Claim(subject, attribute, value, "", "fact", "statement", e))
        elif owner:
            claims.append(Claim(subject, "action item", value, "", "fact", "statement", e))
    return claims, owners


def _owner(task: str, names: dict[str, str], boxed: bool = False) -> tuple[str, str] | None:
    """(the owner an action item opens with, "person" or ""): a handle, a name of the document or a
    person's name, followed by what to do ("Priya: write …", "@lena to …"); in a checkbox item the task
    after a dash may open with a name ("- [ ] Bruno — Tempo 2.6 upgrade plan" is Bruno's, not Tempo's)."""
    m = _OWNER.match(task)
    if not m or not (m.group("task")[:1].islower() or m.group("task").startswith("[") or boxed and _dashed(task, m)):
        return None  # "Deciders: Priya Raman, Lena Vogel" lists names; an action item says what to do
    if _stated(m.group("task")):
        return None  # "Statuspage: renews on 3 March", "Pagerduty: we're at 14 seats": what it is, no task
    who = m.group("handle") or m.group("name")
    if not (m.group("handle") or identity_key(who) in names or nt.person_shape(who)):
        return None
    person = m.group("handle") or nt.person_shape(who) or identity_key(who) not in names
    return names.get(identity_key(who), who), "person" if person else ""


def _dashed(task: str, m: re.Match[str]) -> bool:
    """The owner stands before a dash (not a colon: "Deciders: Priya Raman" is a label) and what follows
    is no further name alone."""
    between = task[m.end("name") if m.group("name") else m.end("handle"):m.start("task")]
    return any(d in between for d in "—–-") and not nt.person_shape(m.group("task").strip())


def decisions(doc: Document, us: list[Unit], names: dict[str, str], known: dict[str, str] | None = None) -> list[Claim]:
    """The decisions stated in a sentence, on the thing chosen (else the note): "we chose X over Y because Z"
    (with the alternative and the reason), "Decision: …", "we decided to …", "we go with X", "X it is", a
    date or plan moved ("moves from 31 March to 30 April": the old date its alternative). A question
    ("do we keep X or go with Y?") decides nothing. The words are read in any case ("Going with B").
    `known` are the names the document gives a page (`names` less its passing mentions): only a choice in
    so many words ("we chose X") makes a passing name a page; a moved date or a looser phrasing goes on a
    page the document gives, else the note's."""
    out: list[Claim] = []
    for u in us:
        text = u.plain  # (marks kept: a value is a span of its line, "moved to **Sat 21 Feb**")
        if text.rstrip().endswith("?"):
            continue
        if len(text) > MAX_STATEMENT_CHARS:  # (a long paragraph decides where it leads with the word: its first sentence)
            if (m := _DECISION_LEAD.search(text)) and as_written(doc, u, what := _span(m.group("what"))):
                last = next(k for k in range(u.first, u.last + 1) if what in joined(doc, u.first, k))
                out.append(Claim(doc.title, "decision", what, "", "fact", "statement", ev(doc, u.first, last)))
            continue
        words = " " + " ".join(text.casefold().split())
        if not _DECISION_HELD.any(words):  # (its words looked for in one scan: asked of every sentence)
            continue
        out += [c for c in _decision(doc, u, text, names, names if known is None else known) if as_written(doc, u, c.value)]
    return out


def _decision(doc: Document, u: Unit, text: str, names: dict[str, str], known: dict[str, str]) -> list[Claim]:
    """The decision claims of one statement, by the first phrasing of it that matches."""
    e = ev(doc, u.first, u.last)
    m = _CHOSE.search(text)
    if m:
        chosen = m.group("x").strip()
        subject = _subject(chosen, names) or _subject(text, names) or doc.title
        out = [Claim(subject, "decision", _span(text[m.start("verb"):]), "", "fact", "statement", e)]
        if m.group("why"):
            out.append(Claim(subject, "reason", m.group("why").strip(), "", "fact", "statement", e))
        if m.group("y"):
            out.append(Claim(subject, "alternative", m.group("y").strip(), "", "fact", "statement", e))
        return out
    m = _DECIDED.search(text)
    if m:
        what = _span(m.group("what"))
        return [Claim(_subject(what, names) or doc.title, "decision", what, "", "fact", "statement", e)]
    m = _DECISION_LEAD.search(text)
    if m:
        what = _span(m.group("what"))
        return [Claim(_subject(what, known) or doc.title, "decision", what, "", "fact", "statement", e)]
    m = next((m for pattern in (_MOVED, _MOVED_ARROW, _WAS_NOW) if (m := pattern.search(text)) and _when(m.group("x"))), None)
    if m:
        value = _span(text[m.start("verb"):])
        subject = _subject(value, known) or doc.title  # (the page of a name the decision's words hold)
        out = [Claim(subject, "decision", value, "", "fact", "statement", e)]
        if m.group("y"):  # (the old date alone names nothing: the note's)
            out.append(Claim(doc.title, "alternative", _span(m.group("y")), "", "fact", "statement", e))
        return out
    m = next((m for m in _CHOICE.finditer(text) if _said(text, m)), None)
    if m:
        value = _span(text[m.start("verb") if m.group("verb") else 0:])
        return [Claim(_subject(value, known) or doc.title, "decision", value, "", "fact", "statement", e)]
    return []


def _said(text: str, m: re.Match[str]) -> bool:
    """A choice's verb in lower case, or capitalised where it opens a sentence or a clause ("Going with
    B"): a capital mid-sentence is a name ("mostly Go with a bit of Python")."""
    if not m.group("verb") or not m.group("verb")[:1].isupper():
        return True
    before = text[:m.start("verb")].rstrip(" *_")
    return not before or before[-1] in ".:;—–-(>→!"


def _span(value: str) -> str:
    """A decision's words without the stop and the emphasis marks at their ends ("**Sat 21 Feb**.")."""
    return value.strip().strip(".*").strip()


_TIME_LEAD = frozenset("the next end mid early late start w/c wk week".split())  # before a time: "end of Feb", "w/c 4 Jan"


def _when(span: str) -> bool:
    """A moved plan's new time: it opens with a number or a day's or month's name, after a word that
    leads a time ("30 April", "tue 10 mar", "end of Feb"); "moved to Nomad 1.7" moved a thing, no date."""
    words = [w for w in re.split(r"[^\w/]+", span.casefold()) if w]
    while words and (words[0] in _TIME_LEAD or words[0] == "of"):
        words = words[1:]
    return bool(words) and (words[0][:1].isdigit() or words[0] in wd.CALENDAR or re.fullmatch(r"[qh][1-4]", words[0]) is not None)


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
