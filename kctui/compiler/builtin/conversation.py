"""Conversations and chat logs as a document shape, recognised from the text alone (never a file name):
many paragraphs, list items or lines written `Name: text` (after an optional time stamp such as `[19:04]`
or `05/03/2024, 19:04 -`), a few names repeating, speakers taking turns, people writing in the first
person or to another. Dated headings (`## Session 9 — 1:51 pm on 26 June, 2023`, `## 7 January 2024 (Sunday)`), or a
turn's own dated stamp, date the turns under them (read by `kctui.core.relative_time.anchor_date`).

What the extractor makes of one (`read` recognises it, `as_prose` and `attribute` are the hooks):

- the text of each turn without its `Name:` label is the prose the other rules read, so a turn's first
  word is a sentence start ("Sounds like Buddy really" is no name) and `Name: text` is no `key: value`;
  a word the chat writes only there, set off by a comma or a sentence's end, and by one speaker, is an
  interjection or a greeting, no name ("Blimey, that's soon.", "Felicidades! …": `openers`);
- each turn is a statement of its speaker (`said`), dated with its session's date as its scope, with
  each relative time it holds ("last week", "two years ago") beside it as the date or range it means;
- each speaker is a person, with the short forms other turns call them by ("Len" for Lena) as aliases;
  the speaker's page lists the sentences in which they speak of themselves (the subject is I, my, we,
  our, or "X and I"), as `said`, or as `plan` when the sentence speaks of the future (will, going to, a
  relative time after the session's date), each cited at the turn's line and dated;
- a name in parentheses after a speaker's (`Gareth Price (Wessex Growers): …`) is the group they speak
  for: a page of its own, the speaker's `affiliation`, and what they say of "we" and "our" on it too.

Pure functions of the document (tests/unit/test_conversation_shape.py).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, replace

from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev
from kctui.compiler.builtin.statements import LINE_ORIGIN
from kctui.compiler.extraction import Entity, Extraction, cited_lines
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Claim
from kctui.core.relative_time import RelativeTime, anchor_date, resolve
from kctui.core.slugs import identity_key
from kctui.core.values import cited_lines_contain, strip_inline

MIN_TURNS = 6  # a conversation has at least this many turns
TURN_SHARE = 0.5  # of the prose units (paragraphs, items, quotes; each turn of a chat log's lines)
MAX_SPEAKERS = 12
REPEAT_SHARE = 0.9  # of the turns, by speakers with two turns or more
TAKING_TURNS = 0.4  # of the consecutive turns, with another speaker
PERSONAL = 0.4  # of the turns, speaking to or of a person: I, me, my, we, us, our, you or your
MAX_TURN_CHARS = 2 * MAX_STATEMENT_CHARS  # a longer turn is one statement per sentence
MAX_LABEL = 96  # characters before a turn's colon (a stamp, a name, a parenthesis)
MIN_FACT_WORDS = 5  # a sentence about oneself this short ("I agree with Rosa") says too little

_STAMP = re.compile(r"(?:\[[^\]\n]{1,40}\]\s*|\(?\d[\d/.:-]*,?(?:\s+\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?)?\)?"
                    r"\s*(?:[-–—|]\s*)?)")
_TURN = re.compile(r"(?P<mark>\*\*|__)?(?P<name>[^\W\d_][\w'’.-]{0,20}(?: [^\W\d_][\w'’.-]{0,20}){0,2})(?P=mark)?"
                   r"\s*(?:\((?P<aside>[^()\n]{1,40})\)\s*)?(?:\*\*|__)?:(?:\*\*|__)?[ \t]+(?=\S)")
_PERSONAL = re.compile(r"(?:^|(?<=[\s(\"“]))(?:I|[Mm]e|[Mm]y|[Ww]e|[Uu]s|[Oo]ur|[Yy]ou|[Yy]our)(?:['’]\w+)?(?=[,.!?;:)\"”]?(?:\s|$))")
_SELF = re.compile(r"(?:(?<![\w'’])(?:I|[Mm]y|[Ww]e|[Oo]ur)(?:['’](?:m|ve|ll|d|re))?|\b[A-Z][\w'’-]* and I)(?![\w'’])")
MAX_LEAD = 4  # words before the subject, ended by a comma or a dash ("Oh no, my …"); or one before I or we ("Also I …")
_LEAD_END = (",", "—", "–", "-", ":", ";")
_FUTURE = re.compile(r"(?:['’]ll|\bwill|\bshall|(?<!was )(?<!were )\bgoing to|\bgonna)\b", re.I)
_WORD = re.compile(r"[^\W_][\w'’-]*")


@dataclass(frozen=True, slots=True)
class Turn:
    speaker: str
    text: str  # what the speaker says, the label taken off (inline markup kept), lines joined by "\n"
    first: int
    last: int
    lines: tuple[int, ...]
    block: int  # the original block it is in
    date: dt.date | None  # its own stamp's date, else its session's
    group: str = ""  # the name after the speaker's, in parentheses: where they speak from ("Ana (Acme Ltd): …")


@dataclass(frozen=True, slots=True)
class Conversation:
    turns: tuple[Turn, ...]
    speakers: tuple[str, ...]  # in the order they first speak
    aliases: dict[str, tuple[str, ...]]  # speaker -> the short forms other turns call them by


def label(line: str) -> tuple[str, int, dt.date | None, str] | None:
    """(speaker, where the words of the turn start, the stamp's date, the name in parentheses after the
    speaker's) when a line opens a turn."""
    if not 0 < line.find(":", 0, MAX_LABEL) or line[:1].islower():
        return None  # (most lines of most documents: no label can end before a colon this far in)
    stamp = _STAMP.match(line)
    start = stamp.end() if stamp and stamp.end() and _TURN.match(line, stamp.end()) else 0
    m = _TURN.match(line, start)
    if m is None:
        return None
    name = m.group("name").rstrip(".")
    if len(name) < 2 or len(name) > 32 or not all(w[0].isupper() for w in name.split()):
        return None
    aside = (m.group("aside") or "").strip()
    group = aside if aside[:1].isupper() and not any(ch.isdigit() for ch in aside) else ""  # not "(10:02)"
    return name, m.end(), anchor_date(line[:start]) if start else None, group


def read(doc: Document) -> Conversation | None:
    """The document's turns when it is a conversation (see the module's text), else None."""
    if doc.citation_unit != "line":
        return None
    prose = [b for b in doc.blocks if b.kind in ("paragraph", "item", "quote")]
    if sum(1 for b in prose for line in b.text.split("\n") if label(line)) < max(MIN_TURNS, TURN_SHARE * len(prose)) / 2:
        return None  # (a quick look: far too few blocks open with a turn)
    turns: list[Turn] = []
    others = 0
    dates: list[tuple[int, dt.date | None]] = []  # the dated headings in force: (level, date)
    for index, block in enumerate(doc.blocks):
        if block.kind == "heading":
            while dates and dates[-1][0] >= block.level:
                dates.pop()
            dates.append((block.level, anchor_date(strip_inline(block.text))))
            continue
        if block.kind not in ("paragraph", "item", "quote"):
            continue
        found = _block_turns(block, index, next((d for _lv, d in reversed(dates) if d), None))
        if found:
            turns += found
        else:
            others += 1
    if len(turns) < MIN_TURNS or len(turns) < TURN_SHARE * (len(turns) + others):
        return None
    counts = Counter(t.speaker for t in turns)
    repeating = sum(n for n in counts.values() if n >= 2)
    if len(counts) > MAX_SPEAKERS or sum(1 for n in counts.values() if n >= 2) < 2 or repeating < REPEAT_SHARE * len(turns):
        return None
    changes = sum(1 for a, b in zip(turns, turns[1:]) if a.speaker != b.speaker)
    if changes < TAKING_TURNS * (len(turns) - 1):
        return None
    if sum(1 for t in turns if _PERSONAL.search(t.text)) < PERSONAL * len(turns):
        return None
    speakers = tuple(dict.fromkeys(t.speaker for t in turns))
    return Conversation(tuple(turns), speakers, _aliases(speakers, turns))


def _block_turns(block: Block, index: int, session: dt.date | None) -> list[Turn]:
    """The turns of one prose block: each line that opens with a label starts one, the lines after it
    are its own; a block whose first line opens none holds none."""
    texts = block.text.split("\n")
    out: list[Turn] = []
    for i, text in enumerate(texts):
        line = block.lines[i] if i < len(block.lines) else block.end
        got = label(text)
        if got is None:
            if not out:
                return []
            last = out[-1]
            out[-1] = replace(last, text=f"{last.text}\n{text}", last=line, lines=(*last.lines, line))
            continue
        speaker, at, stamped, group = got
        out.append(Turn(speaker, text[at:], line, line, (line,), index, stamped or session, group))
    return out


def _aliases(speakers: tuple[str, ...], turns: list[Turn]) -> dict[str, tuple[str, ...]]:
    """A capitalised word of the turns that opens one speaker's name and no other's ("Len" for Lena, "Ana"
    for Ana Souza) is what the others call that speaker."""
    words: set[str] = set()
    for t in turns:
        words.update(w for w in _WORD.findall(t.text) if w[0].isupper() and 2 <= len(w))
    keys = {identity_key(s) for s in speakers}
    out: dict[str, tuple[str, ...]] = {}
    for speaker in speakers:
        first = speaker.split()[0]
        whole = " " in speaker  # a full name's first name is a short form of it too
        short = sorted(w for w in words if (len(w) < len(first) or whole) and first.startswith(w) and identity_key(w) not in keys
                       and sum(1 for s in speakers if s.split()[0].startswith(w)) == 1)
        if short:
            out[speaker] = tuple(short)
    return out


def as_prose(doc: Document, convo: Conversation) -> Document:
    """The document as the other rules read it: each turn a block of its own, its label taken off (the
    lines stay as written, so every citation and check is on the source's own lines)."""
    by_block: dict[int, list[Turn]] = {}
    for t in convo.turns:
        by_block.setdefault(t.block, []).append(t)
    blocks: list[Block] = []
    for index, block in enumerate(doc.blocks):
        for t in by_block.get(index, ()):
            blocks.append(Block(block.kind, t.first, t.last, t.text, t.lines, block.level))
        if index not in by_block:
            blocks.append(block)
    return replace(doc, blocks=blocks)


def day(date: dt.date) -> str:
    """`2023-09-03`: a speaker's page lists their statements in date order."""
    return date.isoformat()


def scope_of(text: str, date: dt.date | None, titled: bool = False) -> tuple[str, list[RelativeTime]]:
    """A statement's date and, beside it, each relative time it holds as the date or range it means:
    `2023-09-03; yesterday = Saturday 2 September 2023` (`titled`: the date is the page's own, in its
    title, and not written again)."""
    if date is None:
        return "", []
    found = resolve(text, date)
    return "; ".join([*(() if titled else (day(date),)), *(r.gloss() for r in found)]), found


def about_self(sentence: str) -> bool:
    """Does the sentence speak of its speaker (its subject I, my, we, our or "X and I", after at most a
    few words of lead, and five words or more), and is it no question?"""
    text = sentence.strip()
    if text.endswith("?") or len(_WORD.findall(text)) < MIN_FACT_WORDS:
        return False
    return bool(self_subject(text))


def self_subject(sentence: str) -> str:
    """The first-person subject of a sentence (I, my, we, our, "X and I", as written), or ""."""
    m = _SELF.search(sentence)
    if m is None:
        return ""
    lead = sentence[:m.start()].split()
    pronoun = m.group(0)[:1] in "IWw" or m.group(0).endswith(" I")  # I, we, "X and I"; not my, our
    ok = not lead or (len(lead) == 1 and pronoun) or (len(lead) <= MAX_LEAD and lead[-1].endswith(_LEAD_END))
    return m.group(0) if ok else ""


def plan(sentence: str, found: list[RelativeTime], date: dt.date | None) -> bool:
    """Does a sentence about oneself speak of the future: will, going to, or a time after its date?"""
    return bool(_FUTURE.search(sentence)) or (date is not None and any(r.start > date for r in found))


def statements(doc: Document, convo: Conversation, us: list[Unit]) -> list[Claim]:
    """Each turn as its speaker's dated statement (the source page's), and the sentences in which a
    speaker speaks of themselves (their own page's). `us` are the units of `as_prose(doc, convo)`."""
    out: list[Claim] = []
    titled = anchor_date(doc.title)  # one session's note: its source page's title holds the date
    sentences: dict[int, list[Unit]] = {}
    for u in us:
        sentences.setdefault(u.first, []).append(u)
    for t in convo.turns:
        said = [u for n in t.lines for u in sentences.get(n, ())]
        whole = " ".join(strip_inline(t.text).split())
        parts = [(whole, t.first, t.last)] if len(whole) <= MAX_TURN_CHARS else [(u.plain, u.first, u.last) for u in said]
        for text, first, last in parts:
            if text and "\\" not in text:
                out.append(Claim(t.speaker, "said", text, scope_of(text, t.date, t.date == titled)[0], "fact", LINE_ORIGIN, ev(doc, first, last)))
        for u in said:
            if not about_self(u.plain) or len(u.plain) > MAX_STATEMENT_CHARS or "\\" in u.plain:
                continue
            scope, found = scope_of(u.plain, t.date)
            attribute = "plan" if plan(u.plain, found, t.date) else "said"
            out.append(Claim(t.speaker, attribute, u.plain, scope, "fact", "statement", ev(doc, u.first, u.last)))
            if t.group and self_subject(u.plain)[:1] in "WwOo":  # we, our: the group they speak for
                out.append(Claim(t.group, attribute, u.plain, scope, "fact", "statement", ev(doc, u.first, u.last)))
    return out


def speakers(doc: Document, convo: Conversation, entities: list[Entity]) -> list[Entity]:
    """The entities with every speaker a person (cited at their first turn), their short forms as
    aliases; an entity that is only a speaker's short form goes (its claims find the speaker's page)."""
    first = {}
    for t in convo.turns:
        first.setdefault(t.speaker, t.first)
    people = {identity_key(s): s for s in convo.speakers}
    short = {identity_key(a) for aliases in convo.aliases.values() for a in aliases}
    out: list[Entity] = []
    for e in entities:
        key = identity_key(e.name)
        if key in short:
            continue
        if key in people:
            speaker = people.pop(key)
            aliases = tuple(sorted({*e.aliases, *convo.aliases.get(speaker, ())}))
            e = Entity(e.name, "person", e.surface, aliases, e.evidence)
        out.append(e)
    for key, speaker in people.items():
        line = first[speaker]
        out.append(Entity(speaker, "person", speaker, convo.aliases.get(speaker, ()), ev(doc, line, line)))
    named = {identity_key(e.name) for e in out}
    for t in convo.turns:  # the groups the speakers speak for ("Ana (Acme Ltd): …")
        if t.group and identity_key(t.group) not in named:
            named.add(identity_key(t.group))
            out.append(Entity(t.group, "", t.group, (), ev(doc, t.first, t.first)))
    return out


def openers(convo: Conversation) -> set[str]:
    """The words (identity keys) the chat writes only as the first of a turn, set off by a comma or a
    sentence's end ("Blimey, that's soon.", "Felicidades! …"), never inside a sentence, by one speaker: an
    interjection or a greeting, whose capital is the turn's. A speaker's name or short form is theirs
    however written."""
    opening: dict[str, set[str]] = {}  # word -> the speakers whose turns it opens
    inside: set[str] = set()
    for t in convo.turns:
        m = _OPENER.match(t.text)
        skip = m.start("word") if m else -1
        for w in _WORD.finditer(t.text):
            if w.start() == skip:
                opening.setdefault(identity_key(w.group()), set()).add(t.speaker)
            else:
                inside.add(identity_key(w.group()))
    people = {identity_key(n) for s in convo.speakers for n in (s, *s.split(), *convo.aliases.get(s, ()))}
    # (a word another speaker echoes is what they talk of: "Severnside! They rang …" — "SEVERNSIDE??")
    return {w for w, who in opening.items() if len(who) == 1} - inside - people


_OPENER = re.compile(r"[\s*_\"“]*(?P<word>[^\W\d_][\w'’-]*)[*_]*(?:[,.!?]|\s*$)")


def _called(convo: Conversation) -> dict[str, re.Pattern[str]]:
    """Per speaker (and short form), how a sentence calls them: their name set off by commas or opening
    the sentence ("…, Len!", "Rosa, …")."""
    out: dict[str, re.Pattern[str]] = {}
    for speaker in convo.speakers:
        names = "|".join(re.escape(n) for n in sorted({speaker, *convo.aliases.get(speaker, ())}, key=len, reverse=True))
        pattern = re.compile(rf"(?:^|,)\s*(?:{names})\s*(?:[,.!?]|$)")
        for n in (speaker, *convo.aliases.get(speaker, ())):
            out[identity_key(n)] = pattern
    return out


def _calls(claim: Claim, called: dict[str, re.Pattern[str]], spoken: set[int]) -> bool:
    pattern = called.get(identity_key(claim.subject))
    return claim.attribute == "note" and claim.evidence.start in spoken and pattern is not None \
        and pattern.search(claim.value) is not None


def attribute(doc: Document, convo: Conversation, us: list[Unit], ex: Extraction) -> None:
    """The hook after the other rules: the speakers as people, each turn (instead of the source's line
    statements of its lines) and each sentence about oneself as claims, kept when their cited lines hold
    them, the first turn as the summary."""
    ex.entities = speakers(doc, convo, ex.entities)
    said_so = openers(convo)  # "Blimey, that's soon.": a word only ever opening a turn is no name
    ex.entities = [e for e in ex.entities if identity_key(e.name) not in said_so]
    ex.passing = [e for e in ex.passing if identity_key(e.name) not in said_so]
    ex.passing_claims = [c for c in ex.passing_claims if identity_key(c.subject) not in said_so]
    named = {identity_key(e.name) for e in ex.entities}  # a passing mention that is now a page's is the page's
    ex.claims += [c for c in ex.passing_claims if identity_key(c.subject) in named]
    ex.passing_claims = [c for c in ex.passing_claims if identity_key(c.subject) not in named]
    ex.passing = [e for e in ex.passing if identity_key(e.name) not in named]
    spoken = {n for t in convo.turns for n in t.lines}
    # what someone says "is" something in passing ("Three roasts is a personal best") defines no term
    chat = {identity_key(c.name) for c in ex.concepts if c.origin == "definition" and c.evidence.start in spoken}
    ex.concepts = [c for c in ex.concepts if identity_key(c.name) not in chat]
    # nor is a turn's `Label: …` a field of the document; the turns are their lines' statements
    ex.claims = [c for c in ex.claims if not (c.evidence.start in spoken and (
        c.origin in ("kv", LINE_ORIGIN) or identity_key(c.subject) in chat))]
    # a sentence that only calls a speaker by name ("Happy new year, Len!") says nothing about them, and
    # a speaker's short form named once is no passing mention of its own
    called = _called(convo)
    ex.claims = [c for c in ex.claims if not _calls(c, called, spoken)]
    ex.passing_claims = [c for c in ex.passing_claims if not _calls(c, called, spoken)]
    ex.passing = [e for e in ex.passing if identity_key(e.name) not in called]
    groups = {(t.speaker, t.group): t.first for t in reversed(convo.turns) if t.group}  # (each at its first turn)
    affiliations = [Claim(who, "affiliation", group, "", "fact", "statement", ev(doc, line, line))
                    for (who, group), line in sorted(groups.items(), key=lambda g: g[1])]
    for claim in affiliations + statements(doc, convo, us):
        if cited_lines_contain(cited_lines(doc, claim.evidence), claim.value):
            ex.claims.append(claim)
        else:
            ex.dropped += 1
    first = convo.turns[0]
    line = " ".join(strip_inline(doc.lines[first.first - 1]).split())
    if line and len(line) <= 400:
        ex.summary = (line, ev(doc, first.first, first.first))
