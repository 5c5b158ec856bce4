"""Decisions and action items by where they stand (issue 31, point 3): what a note puts under a heading
or a lead-in that says so, and the rows of a table of tasks.

- a section under a heading that says decision(s) / outcome / resolution / agreed / decided, and a list
  after a lead-in line of that kind ("Decisions:", "**Agreed**"), holds decisions: each sentence of it is
  a decision claim of the note (of the record, for a decision record: see document._record);
- a section or a list after "Actions:", "Action items", "Next steps", "Follow-ups", "TODO" holds action
  items: each list item (a paragraph among them only where it names an owner: "Next meeting: 19 May" is
  a remark) is an action item of its owner (as people write one: "Marcus — …", "Osei: …",
  "… (Gus)", "… — **Devin**, draft by 12 Feb", "AP: Lena to …", "@Tomás can you …"), else of the note,
  with its due date ("by 3/6", "due 8 Dec") as a claim of its own;
- a table whose header has a due column (due / deadline), or an owner column (owner / who / assignee …)
  beside a task column (action / task, or what / item with a column of when: date / time / day), or a
  column headed "who" and a verb ("who sets it up"), is a table of action items: each row is an action item of its owner with its due, or done where a
  status column says so.

The words below are the English words for a decision, an action, an owner and a due date (closed class):
no word of any corpus. Each claim's value is a span of its cited line.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.named_owner import Lazy, Written, name_word
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, as_written, bare, ev
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key
from kctui.core.values import strip_inline

# the English words a heading or a lead-in names decisions or actions by (closed class)
DECISION_WORDS = frozenset("decision decisions decided outcome outcomes resolution resolutions resolved agreed "
                           "agreement agreements conclusion conclusions".split())
NOT_DONE_WORDS = frozenset("cancelled canceled dropped".split())  # a heading of what was decided against
ACTION_WORDS = frozenset("action actions todo todos to-do to-dos tasks followups follow-ups follow-up ap aps ais "
                         "next-steps".split())
OWNER_WORDS = frozenset("owner owners who assignee assignees assigned lead responsible by".split())
DUE_WORDS = frozenset("due deadline eta target due-date".split())
# a task column's header (not "step": a column of steps is a procedure's, a runsheet's or a runbook's, whoever
# runs it does them in turn; no one's action items, session 31)
TASK_WORDS = ACTION_WORDS | frozenset("task item items what".split())
REGISTER_WORDS = frozenset("what item items".split())  # a column of things as much as of tasks
WHEN_WORDS = frozenset("when date time day".split())
DONE_WORDS = frozenset("done closed complete completed fixed resolved shipped ✅ ✔ ✓ yes".split())
STATUS_WORDS = frozenset("status state done".split())
MAX_LABEL_WORDS = 4  # a heading or lead-in naming a kind of list is short ("Action items", "Decisions made")

DECISION = "decision"
ACTION = "action"


def label_kind(text: str) -> str:
    """DECISION, ACTION or "" for a heading's or a lead-in's words: "Decisions", "**Agreed**",
    "Action items:", "Next steps", "Decisions & actions" (both: ACTION, its items' owners tell)."""
    words = _label_words(text)
    if len(words) > MAX_LABEL_WORDS:  # a long heading names a list of tasks by its head, before a bracket or a
        # dash ("crunch TODO (infra) — Maren's list"); (a decision's heading so long is a record's title, over
        # its context and options: "Decision: orchestrator for the …")
        head = _label_words(_HEAD_PART.split(strip_inline(text), maxsplit=1)[0])
        return ACTION if len(head) <= MAX_LABEL_WORDS and set(head) & ACTION_WORDS else ""
    if not words:
        return ""
    joined = "-".join(words)
    if set(words) & ACTION_WORDS or "next-steps" in joined or "follow-up" in joined or "to-do" in joined:
        return ACTION
    # a decision word heads the label ("Decisions", "Decision outcome", "Decisions made"), not a word of
    # another list it qualifies ("Decision drivers", "Decision makers")
    # or a decision word that a phrase of when or where qualifies ("Decisions this week", "Decision from review")
    if (set(words) & NOT_DONE_WORDS or "not-doing" in joined or "won-t" in joined) and not set(words) & DONE_WORDS:
        return DECISION  # what the note decided against: "Not doing", "Cancelled / gone", "Won't fix"
    head = words[-1]
    qualified = len(words) > 1 and words[1] in wd.FUNCTION_WORDS
    return DECISION if head in DECISION_WORDS or words[0] in DECISION_WORDS and (head.endswith(("ed", "made", "taken")) or qualified) else ""


_HEAD_PART = re.compile(r"\s*(?:\(|\s[—–-]\s|:\s)")


def _label_words(text: str) -> list[str]:
    label = bare(strip_inline(text)).strip().rstrip(":").strip()
    return [w for w in re.split(r"[^\w-]+", label.casefold().replace("&", " ")) if w and not w.isdigit()]


_LEAD = re.compile(r"^(?:\*\*|__)?(?P<label>[^:*_]{2,40}?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$")
_LEAD_MOST = 2 + 40 + 2 + 1 + 2  # the most characters besides spaces `_LEAD` matches (marks, label, colon, mark)


def _lead_kind(text: str) -> str:
    """The kind a paragraph names when it is a lead-in alone on its line ("Decisions:", "**Agreed**", or
    the label's word alone, "actions", a line of its own before the list)."""
    lines = text.split("\n")
    first = strip_inline(lines[0]).strip()
    if len(first) > _LEAD_MOST and len("".join(first.split())) > _LEAD_MOST:
        return ""  # (more than the pattern's 47 characters besides spaces: no lead-in, without its 40 tries)
    m = _LEAD.match(first)
    if not m:
        return ""
    if first.endswith(":") or first.startswith(("**", "__")):
        return label_kind(m.group("label"))
    return label_kind(first) if len(lines) == 1 and len(first.split()) <= 2 else ""


def section_kinds(doc: Document) -> dict[int, str]:
    """The block indexes that stand under a decisions or actions heading (to the next heading of its level
    or above; its paragraphs, lists and tables) or in the list right after a lead-in of that kind, with
    that kind."""
    out: dict[int, str] = {}
    heading_kind, heading_level, lead = "", 0, ""
    for k, block in enumerate(doc.blocks):
        if block.kind == "heading":
            kind = label_kind(block.text)
            if kind or block.level <= heading_level or not heading_kind:
                heading_kind, heading_level = kind, block.level
            lead = ""
            continue
        if block.kind == "item" and lead:
            out[k] = lead
            continue
        lead = _lead_kind(block.text) if block.kind == "paragraph" else ""
        if heading_kind and block.kind in ("paragraph", "item", "quote", "table") and not lead:
            out[k] = heading_kind
    return out


# --- owners and due dates, as people write them -------------------------------------------------------

_AFTER_CAPITAL = r"[\w'’.-]+(?:\s+[A-Z][\w'’-]+){0,2}"  # (a name's letters after its capital)
_AFTER_AT = r"[A-Za-z][\w-]{1,38}"  # (a handle's after its "@")
_NAME = "[A-Z]" + _AFTER_CAPITAL
_HANDLE = "@" + _AFTER_AT
_OWNER_SHAPES = (
    re.compile(rf"^(?:(?:AP|AI|TODO)\s*:\s*)?(?P<who>{_HANDLE}|{_NAME}(?:\s*(?:\+|&|and)\s*{_NAME})?)\s*(?::|—|–|\s-\s)\s*\S"),
    re.compile(rf"\b(?P<who>{_NAME}(?:\s*(?:\+|&|and)\s*{_NAME})?)\s+(?:to|will|can you|pls|please)\s+[a-z]"),
    re.compile(rf"(?P<who>{_HANDLE})\b"),
    re.compile(rf"\((?P<who>{_NAME}(?:\s*(?:\+|&|and|,)\s*{_NAME})*)\)\s*[.,;]?(?:\s|$)"),
    re.compile(rf"(?:—|–|\s-\s)\s*(?:\*\*|__)?(?P<who>{_NAME}(?:\s*(?:\+|&|and)\s*{_NAME})?)(?:\*\*|__)?\s*(?:,|—|–|\s-\s|\(|$)"),
    re.compile(rf"\b[Oo]wner\s*:?\s*(?P<who>{_NAME})"),
)
_DUE = re.compile(r"\b(?:due|by|before|until|deadline)\s*:?\s+(?P<due>[^,;()—–]{2,30}?)\s*(?=$|[,;()—–.!]\s|[,;()—–!]|\s+(?:at|to|so|and|if|for|or)\s)", re.I)
_TRAILING_DATE = re.compile(r"(?:—|–|\s-\s|,)\s*(?P<due>~?[^—–,;()]{2,24}?)\s*$")


def owner_of(text: str, names: dict[str, str]) -> str | None:
    """The owner an action item names, in the shapes people write one; a name must be a name of the
    document, a handle or shaped as a person's ("Marcus — …", "… (Gus)", "AP: Lena to …")."""
    plain = bare(text)
    for shape in _OWNER_SHAPES:
        for m in shape.finditer(plain):
            who = re.split(r"\s*(?:\+|&|\band\b|,)\s*", m.group("who").strip())[0].strip(" .")
            if _ownerlike(who, names):
                return names.get(identity_key(who.lstrip("@")), who.lstrip("@"))
    return None


def _owner_cell(cell: str, names: dict[str, str]) -> str | None:
    """An owner column's cell names its owner where it is a name alone: one to three capitalised words
    ("Sam", "Jono Reyes"), the first of several ("Tom + Ravi")."""
    who = re.split(r"\s*(?:\+|&|\band\b|,|/)\s*", bare(cell).strip())[0].strip(" .")
    tokens = who.split()
    if not 1 <= len(tokens) <= 3 or not all(t[:1].isupper() and t.replace("-", "").replace("'", "").isalpha() for t in tokens):
        return None
    return names.get(identity_key(who), who) if _ownerlike(who, names) or len(tokens) == 1 and tokens[0].casefold() not in wd.FUNCTION_WORDS | wd.CALENDAR | OWNER_WORDS | DONE_WORDS else None


def _ownerlike(who: str, names: dict[str, str]) -> bool:
    if who.startswith("@"):
        return True
    first = who.split()[0].casefold()
    if first in wd.FUNCTION_WORDS or first in wd.CALENDAR or first in ACTION_WORDS | DECISION_WORDS | OWNER_WORDS:
        return False
    return identity_key(who) in names or nt.person_shape(who)


def due_of(text: str) -> str | None:
    """The due date an item names: after "due", "by", "before" ("by 3/6", "due 8 Dec"), or a date
    closing the item after a dash or a comma ("… — Fri 10/9"). A due holds a digit or a day's or
    month's name."""
    plain = bare(text)
    for m in (*_DUE.finditer(plain), _TRAILING_DATE.search(plain)):
        if m and _datelike(m.group("due")):
            return m.group("due").strip()
    return None


def _datelike(span: str) -> bool:
    tokens = [t for t in re.split(r"[^\w/]+", span.casefold()) if t]
    if not tokens or len(tokens) > 5:
        return False
    return any(t in wd.CALENDAR or t in ("eod", "eow", "today", "tomorrow", "tmrw", "week", "month") for t in tokens) \
        or any(ch.isdigit() for ch in span) and len(tokens) <= 4


# --- claims -------------------------------------------------------------------------------------------


def section_claims(doc: Document, us: list[Unit], names: dict[str, str], taken: set[int]) -> list[Claim]:
    """The decisions and action items of the sections and lists that say so; `taken` are the lines
    another rule already typed (a checkbox item, an owned item)."""
    kinds = section_kinds(doc)
    claims: list[Claim] = []
    for u in us:
        kind = kinds.get(u.block)
        if not kind or u.kind == "row" or u.first in taken and kind != DECISION or len(u.plain) > MAX_STATEMENT_CHARS:
            # (an item a checkbox or its owner typed as a task is, under a decisions heading, a decision too:
            # "Marta to be the named vendor contact")
            continue
        text = u.plain
        if len(text.split()) < 2 or text.rstrip().endswith("?") or not as_written(doc, u, text):
            continue
        e = ev(doc, u.first, u.last)
        owner = owner_of(text, names)
        due = due_of(text)
        if kind == DECISION and (not (owner and due) or u.first in taken):
            claims.append(Claim(doc.title, "decision", text, "", "fact", "statement", e))
            continue
        if u.index or u.kind == "paragraph" and not owner:
            continue  # an action item is its item's first sentence (the rest say why); a paragraph among
            # the items is a remark ("Next meeting: 19 May", "(Aisha keeps this list)") unless it hands a task
        # (an item whose task is struck through is done: "~~route alerts to PagerDuty~~ (done 14 Oct)")
        struck = text.startswith("~~") and "~~" in text[2:]
        claims.append(Claim(page_of(owner, text, doc, names), "done" if struck else "action item", text, "", "fact", "statement", e))
        if due and not struck:
            claims.append(Claim(doc.title, "due", due, "", "fact", "statement", e))
    return claims


def page_of(owner: str | None, value: str, doc: Document, names: dict[str, str]) -> str:
    """The page an action item goes on: its owner's where the document names them and the item's words
    do ("Quen — order the rack"), else the note's (a row's task alone would read on the owner's page as
    a fact of someone else)."""
    if owner and identity_key(owner) in names and re.search(rf"(?<!\w){re.escape(owner.split()[0])}(?!\w)", value, re.I):
        return owner
    return doc.title


# a task handed to someone in a sentence: "Jonas to finish porting by 27 Feb", "Dana will sign off the
# spend", "AP: Priya to provision …", "Grace — could you raise the PO", "@lena can you …"
# (the handle's "@" or the name's capital first, then the look behind it at what stands before: a pattern
# that opens with a class lets the scan skip to the next one instead of trying the look-behind at every
# character; the same matches)
_HANDED = re.compile(rf"(?P<who>[@A-Z](?<![^\s(>→:;,].)(?:(?<=@){_AFTER_AT}|(?<=[A-Z]){_AFTER_CAPITAL}(?:\s*(?:\+|&|and)\s*{_NAME})?))"
                     r"(?:\s+(?:to|will|'ll|’ll|owns|is going to)|\s*[,:—–-]?\s*(?:can|could|would)\s+you|\s*(?:,|—|–)?\s*pls|\s*(?:,|—|–)?\s*please)"
                     r"\s+(?P<verb>[a-z][a-z'’-]+)")
OBJECT_WORDS = frozenset("me him us you it be been being".split())  # after "to": a preposition's object, no task


def handed_claims(doc: Document, us: list[Unit], names: dict[str, str], taken: set[int]) -> list[Claim]:
    """A sentence that hands a task to someone (a name of the document, one shaped as a person's or a
    handle) is their action item, with its due where it names one; not a line another rule typed."""
    people = set(names)
    out: list[Claim] = []
    written = Lazy(doc.lines)  # (how the document writes its words, read where a word in a name's place asks)
    for u in us:
        if u.kind == "row" or u.first in taken or len(u.plain) > MAX_STATEMENT_CHARS:
            continue
        owner = _handed_to(bare(u.plain), people, written)
        if owner is None or not as_written(doc, u, u.plain):
            continue
        e = ev(doc, u.first, u.last)
        out.append(Claim(page_of(names.get(identity_key(owner), owner), u.plain, doc, names), "action item",
                         u.plain, "", "fact", "statement", e))
        if due := due_of(u.plain):
            out.append(Claim(doc.title, "due", due, "", "fact", "statement", e))
        taken.add(u.first)
    return out


_PREPOSITION_BEFORE = re.compile(r"\b(?:from|of|in|on|at|for|with|by|into|onto|via)\s*$", re.I)


def _handed_to(text: str, people: set[str], written: Written | Lazy | None = None) -> str | None:
    """The person a sentence hands a task to: a handle, a name of the document (`people`: their keys)
    or one shaped as a person's, before "to", "will", "can you" and a verb ("Jonas to finish …"); not
    a name after a preposition ("moved from Redis to use …"). Opening its clause, a given name the
    document knows no thing by ("… over budget. Daf to coordinate w/ …") or a titled one ("Ms. Raman
    will present") is a person's too (session 25), and so is, before "to", a capitalised word no more frequent
    than a name that the document never writes in lower case and writes elsewhere where a name goes
    (`written`: name_word) ("- Hannah to chase editorial …" where a line says "ask Hannah"; not "Need to bump
    …", "Failure to follow …", "Requests to retired models …")."""
    for m in _HANDED.finditer(text):
        verb = m.group("verb").casefold()
        if verb in OBJECT_WORDS or verb in wd.FUNCTION_WORDS or verb in ("don't", "dont", "never") or _PREPOSITION_BEFORE.search(text[:m.start()]):
            continue
        who = re.split(r"\s*(?:\+|&|\band\b)\s*", m.group("who").strip())[0].strip(" .")
        if who.startswith("@") or identity_key(who) in people or nt.person_shape(who):
            return who.lstrip("@")
        if _CLAUSE_OPEN.search(text[:m.start()]) and (given_name(who, {}) or _TITLED.match(text[m.start():])
                                                      or _named_before_to(who, text[m.end("who"):], written)):
            return who  # a given name or a titled name opening its clause: "… over budget. Daf to coordinate w/ …"
    return None


def _named_before_to(who: str, after: str, written: Written | Lazy | None) -> bool:
    """A word that reads as a person's before "to" and a verb (named_owner.name_word)."""
    return written is not None and after.lstrip().startswith("to ") and name_word(who, written)


_CLAUSE_OPEN = re.compile(r"(?:^|[.;:—–→(,]\s*|\s-\s*)$")
_TITLED = re.compile(r"(?:Mr|Ms|Mrs|Dr)\.?\s+[A-Z]")


def due_claims(doc: Document, items: list[Claim]) -> list[Claim]:
    """The due dates of the to-dos and owned action items another rule found ("- [ ] Quen — the quote
    — by 3/6"), each a claim of the note at the item's line (a date alone would read on the owner's page
    as a fact of someone else; the item's own claim there holds it)."""
    out: list[Claim] = []
    for c in items:
        if c.attribute in ("to do", "action item") and (due := due_of(c.value)):
            out.append(Claim(doc.title, "due", due, "", "fact", "statement", c.evidence))
    return out


def table_claims(doc: Document, names: dict[str, str]) -> list[Claim]:
    """The rows of a table of action items (a header with a due column, or an owner and a task column): each row an
    action item of its owner (done where its status says so), with its owner and due as claims."""
    claims: list[Claim] = []
    kinds: dict[int, str] | None = None
    for k, block in enumerate(doc.blocks):
        if block.kind != "table" or len(block.rows) < 2:
            continue
        header = [_label_words(c) for c in block.rows[0][1]]
        who = _column(header, OWNER_WORDS)
        # "who" and a verb heads the column of whom each row is for to do ("who sets it up", "who grants")
        # (not a column of whom to ask: "who knows most", "who to call")
        who_does = next((k for k, words in enumerate(header) if len(words) >= 2 and words[0] == "who" and words[1].endswith("s")
                         and words[1] not in ("knows", "has", "is", "was", "does")), -1)
        who = who if who >= 0 else who_does
        due = _column(header, DUE_WORDS)
        # a column of when is headed by its word first ("Time", "Date", "Day"; not a "lead time")
        when = any(words and len(words) <= 2 and words[0] in WHEN_WORDS for words in header)
        tasks = _column(header, TASK_WORDS - REGISTER_WORDS) >= 0 or _column(header, TASK_WORDS) >= 0 and when or who_does >= 0
        if due < 0 and who >= 0:  # "| Who | What | By |": a column headed "by" beside the owner's says when
            due = next((j for j, words in enumerate(header) if words == ["by"] and j != who), -1)
        if due < 0 and who >= 0 and not tasks:
            kinds = section_kinds(doc) if kinds is None else kinds
            tasks = kinds.get(k) == ACTION  # (under an actions heading, a table with an owner column holds tasks; session 30)
        if due < 0 and (who < 0 or not tasks):
            continue  # (an owner column alone is a list's, a vendor's owner: a task column makes it tasks;
            # "What" / "Item" beside an owner heads a register of things, "| Vendor | What for | Owner |",
            # unless a column says when: "| What | Who | When |")
        status = _column(header, STATUS_WORDS)
        for line, cells in block.rows[1:]:
            claims += _table_row(doc, [strip_inline(c).strip() for c in cells], line, (who, due, status), names)
    return claims


def _column(header: list[list[str]], vocabulary: frozenset[str]) -> int:
    """The first column whose header words are of the vocabulary (up to three words: "Due date")."""
    for k, words in enumerate(header):
        if words and len(words) <= 3 and set(words) & vocabulary:
            return k
    return -1


def _table_row(doc: Document, cells: list[str], line: int, columns: tuple[int, int, int],
               names: dict[str, str]) -> list[Claim]:
    """One row's claims: the task (the longest other cell) as an action item (done where the status or
    the due cell says so), its owner's cell and its due cell."""
    who, due, status = columns
    task = max((c for k, c in enumerate(cells) if k not in columns and not c.isdigit() and not c.startswith("#")),
               key=len, default="")
    if len(task.split()) < 2 or len(task) > MAX_STATEMENT_CHARS:
        return []
    e = ev(doc, line, line)
    owner_cell = cells[who] if 0 <= who < len(cells) else ""
    owner = (owner_of(owner_cell, names) or _owner_cell(owner_cell, names)) if owner_cell else None
    subject = page_of(owner, task, doc, names)
    state = cells[status] if 0 <= status < len(cells) else ""
    done = bool(set(_label_words(state)) & DONE_WORDS) or any(mark in state for mark in "✅✔✓")
    due_cell = cells[due] if 0 <= due < len(cells) else ""
    if not done and due_cell and any(mark in due_cell for mark in "✅✔✓"):
        done = True
    claims = [Claim(subject, "done" if done else "action item", task, "", "fact", "statement", e)]
    if owner_cell:
        claims.append(Claim(subject, "owner", owner_cell, "", "fact", "statement", e))
    if due_cell and due_cell not in ("-", "—", "–"):
        claims.append(Claim(doc.title, "due", due_cell, "", "fact", "statement", e))
    return claims


_GIVEN = re.compile(r"^[A-Z][a-z]{2,}(?:[-'’][A-Z][a-z]+)?$")


def given_name(who: str, names: dict[str, str]) -> bool:
    """A word alone in an owner's place (closing a list item after a dash, in brackets) that reads as a
    given name: one capitalised word, no ordinary word nor a day's or month's ("Kat", "Aisha", not
    "Tom" or "Finance"), that the document names no thing by ("— Relaybus": a thing's name)."""
    return bool(_GIVEN.match(who)) and not wd.common_word(who) and who.casefold() not in wd.CALENDAR \
        and identity_key(who) not in names
