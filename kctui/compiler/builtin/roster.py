"""People by the place a note gives them, not by the look of the word: standups, minutes and to-do
lists name people by their given name alone ("Sam", "ben"), often in lower case, in a few places a
note keeps for people:

- a **roster**: two or more lines in a row that each open with one word and a separator, then what
  that person did or will do ("nadia - brewing …", "- [ ] Dev: book the slot …"), with two words or
  more, mostly names (`mostly_names`: a list of steps, of fields or of levels opens with ordinary
  words: "check - …", "Status: accepted"; after a colon, what follows starts in lower case: "Status:
  Accepted" is a field); a line opening with a longer name and a dash keeps it going, a lower-case
  word among capitalised ones is no member;
- a **list of names** after a label ("Present: Moira, Dev, Aisling, Tomasz"): three or more single
  capitalised words or full names (a given name and an initial among them, "Tomasz W.", names no further);
- a line that is only a name in bold ("**Dev**"): the heading of that person's part of a standup;
- a **column of names** in a table, after the first ("| owner |": Tom, Marek, Carol Pike);
- an email's header lines and a name before an address ("From: Tom Ellery <tom@…>"): people;
- a chat's turn headers, a full name in bold before the time ("**Ingrid Solberg** 14:44", two or more
  in the note): its speakers, people.

A word a roster or a column of names opens with, or one the note puts in two of these places on
different lines, is a name of that note (most often a person's; a roster of vendors names things),
however frequent its word where its roster, list or bold lines are mostly names ("Tom" among "Marek",
"Sione"); declared like a name of the base's profile (recognised wherever the note writes it, in any
case: kctui.compiler.builtin.profile; a word English knows only as the note capitalises it), as typed
fields declare theirs (kctui.compiler.builtin.fields). A full name is a person's, and its given name
alone stands for it where only one full name of the note has it.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import people_heads
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_types import ROLE_NOUNS, person_like, person_shape
from kctui.compiler.builtin.names import HONORIFICS, english_ending
from kctui.compiler.builtin.profile import KnownName, Profile
from kctui.compiler.readers import Document

ROSTER_MIN = 2  # lines in a row that open with a name
ROSTER_RARE_ZIPF = 3.5  # half the roster's words rarer than this: people's names, not steps or levels
_OPENER = re.compile(r"^(?:[-*+]\s+|\d{1,2}[.)]\s+)?(?:\[[ xX]\]\s+)?(?P<name>[A-Za-z][a-z'’]+)(?:\s*\([^()]*\))?"
                     r"(?P<sep>\s*:|\s+[-—–]|\s*[—–])\s+(?P<rest>\S.*)$")  # (a term in bold opens a glossary's line)
# a line of the same list opening with a longer name and a dash ("- Lightspeed K-Series — …"): no member, no break
_LONGER = re.compile(r"^(?:[-*+]\s+|\d{1,2}[.)]\s+)?(?:\[[ xX]\]\s+)?[A-Z0-9][\w.+'’-]*(?: [A-Z0-9][\w.+'’-]*){1,3}"
                     r"(?:\s*\([^()]*\))?\s+[—–-]\s+\S")
_LIST = re.compile(r"^(?:[-*+]\s+)?\**[A-Za-z][\w ]{1,40}?\**\s*:\**\s+(?P<items>[A-Za-z].*)$")
# ("**jun**": a standup written in lower case; "**Jonas** (out until Wed)": an aside on that person's day)
_BOLD = re.compile(r"^\*\*(?P<name>[A-Za-z][a-z'’]+)\*\*:?(?:\s*\([^()]*\))?\s*$")
# a chat's turn header: a full name in bold (a group in parentheses after it) before the time of the turn
# ("**Ingrid Solberg** 14:44", "**Gary Holt (Wakefield)** 14:41"), as a pasted Slack or Teams thread has
_SPEAKER = re.compile(r"^\*\*(?P<name>[A-Z][^*()]{2,60}?)(?:\s*\([^()*]*\))?\*\*\s*\(?\d{1,2}[:.]\d{2}\b")
SPEAKERS_MIN = 2  # turn headers that make a note a chat
_ASIDE = re.compile(r"\s*\([^()]*\)")
# (closed class, like the calendar's words: a roster's "me - …" line is the writer's own)
_CLOSED = frozenset({"yesterday", "today", "tomorrow", "tonight", "me", "us", "him"})
# (not after an initial: "A. Jones"; a writer in lower case ends a sentence before a lower-case word:
# "ppl: jess, tomek, me (rob). dani not started yet")
_SENTENCE_END = re.compile(r"(?<=\w\w)[.;]\s+(?=[A-Za-z])|(?<=\))[.;]\s+(?=[A-Za-z])")
_PARTS = re.compile(r"[,;:()]")  # (a value of several parts is no one person's name)
_ITEM_GAP = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")


def roster_names(doc: Document) -> tuple[KnownName, ...]:
    """The people the note's places for people name (see the module's docstring), each once, spelled
    as the note first writes them capitalised (else as written); then the people an address names."""
    slots: dict[str, set[int]] = {}  # casefolded word -> the lines that give it a place
    named: set[str] = set()  # words a roster or a column of names opens with
    spelled: dict[str, str] = {}
    places: dict[str, set[int]] = {}  # casefolded word -> the lines of a list of names or a bold line
    among: set[str] = set()  # words of a list of names that is mostly names: names however common
    runs: list[list[tuple[str, int]]] = []
    run: list[tuple[str, int]] = []
    bold: list[str] = []
    full_names: list[str] = []  # the full names of lists of names
    last = -1
    lines = _lines(doc)
    for n, (line, text) in enumerate(lines):
        opener = _opener(text)
        if (not opener and not (run and _LONGER.match(text.strip()))) or line != last + 1:
            if run:
                runs.append(run)
            run = []
        if opener:
            run.append((opener, line))
            _spell(spelled, opener)
        last = line
        (listed, full), bolded = _listed(_continued(lines, n)), _bold(text)
        if mostly_names([w.casefold() for w in listed] + [""] * len(full)):  # (a full name is a name)
            among.update(w.casefold() for w in listed)
            full_names += full
        bold += bolded
        for word in listed + bolded:
            places.setdefault(word.casefold(), set()).add(line)
            _spell(spelled, word)
    if run:
        runs.append(run)
    for line, word in people_heads.heading_words(doc):  # ("## ray" under "present: marta, ray, …": a second place)
        if word.casefold() in among and not _word_form(word):  # (not "### Subtyping" of "…: subtyping, coercion")
            places.setdefault(word.casefold(), set()).add(line)
    full_names += _speakers(lines)
    for r in runs:
        _close(r, named, slots)
    named -= _labels_among(named, among | {n.split()[0].casefold() for n in full_names})
    heads: set[str] = set()  # the bold lines of a note whose bold lines are mostly names: each heads a person's part
    if len({w.casefold() for w in bold}) >= ROSTER_MIN and mostly_names({w.casefold() for w in bold}):
        heads = {low for w in bold if (w[:1].isupper() or _lower_case(bold)) and not _word_form(w) and (low := w.casefold()) not in _CLOSED
                 and low not in wd.FUNCTION_WORDS}  # ("**Me**": the writer; a calendar word: `_undated`)
        among.update(w.casefold() for w in bold)
    for column in _name_columns(doc):
        named.update(column)
        for word in column:
            _spell(spelled, column[word])
    found = named | {w for w, lines in places.items() if (len(lines | slots.get(w, set())) >= 2 or w in heads) and w not in _CLOSED
                     and (wd.zipf(w) < wd.COMMON_ZIPF or w in among)}  # ("**Yes**" and "Yes: …" lines are no name's places)
    found = _undated(found, lines)
    first = {w: min(places.get(w, set()) | slots.get(w, set()) or {0}) for w in found}
    full = _people(lines, found, full_names)
    given = {k.aliases[0].casefold() for k in full if k.aliases}  # (stands for its full name)
    speaking = people_heads.speakers(lines)  # (a chat's speaker is a person: "**suni** 09:12")
    return tuple(people_heads.typed(_declared(spelled[w]), speaking) for w in sorted(found - given, key=lambda w: (first[w], w))) + full


def _lower_case(bold: list[str]) -> bool:
    """Does the note write every bold line's word in lower case ("**tomek**", "**pri**", "**me**"): a
    writer who types people's names in lower case, whose standup heads are as much a person's part as
    "**Tom**" is (the bold lines are mostly names, as for capitalised heads), when there are more than
    ROSTER_MIN of them: two bold words in lower case are as often a runbook's sections ("**symptoms**",
    "**escalate**")."""
    return len({w.casefold() for w in bold}) > ROSTER_MIN and all(w[:1].islower() for w in bold)


def _undated(found: set[str], lines: list[tuple[int, str]]) -> set[str]:
    """The names found less the calendar words, but one: a month's or a day's short form that is a
    given name too ("present: priya, tom, jun, ade", "**jun**") is a person's where the note never writes
    it next to a number, as a date is ("30 jun", "jun 2027", "mon 30"), and it is the one calendar word
    among the names (a list of days, "mon, wed, fri", is no list of people)."""
    calendar = {w for w in found if w in wd.CALENDAR}
    if not calendar:
        return found
    if len(calendar) > 1:
        return found - calendar
    word = next(iter(calendar))
    dated = re.compile(rf"\d\W{{0,2}}{re.escape(word)}\b|\b{re.escape(word)}\W{{0,2}}\d", re.IGNORECASE)
    return found - calendar if any(dated.search(text) for _, text in lines) else found


PLURAL_ZIPF = 3.0  # an -s word whose singular English uses this often is a plural ("Blockers"; not "Jonas")


def _word_form(word: str) -> bool:
    """A bold line's word that is a form of an English word, a standup's section and not a person: an
    English ending ("Pending"), or a plural whose singular English knows ("Blockers", "Updates"); a
    name that merely ends in -s ("**Jonas**", "**Thomas**": no "jona", "thoma") heads that person's part."""
    low = word.casefold()
    if not english_ending(word):
        return False
    return low.endswith(wd.WORD_SUFFIX) or wd.zipf(low[:-1]) >= PLURAL_ZIPF


def _declared(word: str) -> KnownName:
    """A name of the note's places for people; a word English knows, written capitalised, is that name
    only where the note capitalises it ("Grace", not "a grace period")."""
    if " " in word:
        return KnownName(word, "person", cased=True)  # a full name of a column of names
    return KnownName(word, cased=word[:1].isupper() and wd.zipf(word) >= ROSTER_RARE_ZIPF)


_COLUMN_MIN = 3  # distinct one-word cells of a table's column that make it a column of names


def _name_columns(doc: Document) -> list[dict[str, str]]:
    """The columns of the note's tables, after the first (the things the rows are about, read by
    kctui.compiler.builtin.facts), whose cells are single capitalised words, three or more distinct
    ones, mostly names ("| owner |": Tom, Marek, Ollie): casefolded word -> spelling."""
    out: list[dict[str, str]] = []
    for block in doc.blocks:
        if block.kind != "table" or len(block.rows) < 1 + _COLUMN_MIN:
            continue
        body = [cells for _, cells in block.rows[1:]]
        for k in range(1, max(len(c) for c in body)):
            cells = [_ASIDE.sub("", c[k]).strip(" *_") for c in body if len(c) > k]
            cells = [c for c in cells if c not in _EMPTY_CELLS]
            if not cells or not all(_ONE_NAME.fullmatch(c) or person_like(c) for c in cells):
                continue  # (a full name is a person's: "Carol Pike" among "Steve", "Tom")
            words = {c.casefold(): c for c in cells}
            if len(words) >= _COLUMN_MIN and not words.keys() & (wd.FUNCTION_WORDS | wd.CALENDAR) \
                    and mostly_names([w if " " not in w else "" for w in words]):
                out.append(words)
    return out


_EMPTY_CELLS = frozenset({"", "-", "—", "–", "n/a", "N/A", "?", "tbc", "TBC", "tbd", "TBD"})
_ONE_NAME = re.compile(r"[A-Z][a-z'’]+")
_LOWER_NAME = re.compile(r"[a-z][a-z'’]+")
_INITIALLED = re.compile(r"[A-Z][a-z'’]+ [A-Z]\.?")  # a given name and a surname's initial ("Tomasz W.")
# a person's name before their address ("From: Tom Ellery <tom.ellery@…>", "Alex Brennan <ab@x.com>")
_ADDRESSED = re.compile(r"(?P<name>[A-Z](?<![\w'’-][A-Z])[a-z'’-]+(?: [A-Z][a-z'’-]+){1,2}),?\s*<[^<>\s@]+@[^<>\s]+>")


# an email's header lines (RFC 5322's fields of people): "From: Jonas Berg", "**Cc:** Kerry Walsh (Finance)"
_HEADER = re.compile(r"^\**(?:From|To|Cc|Bcc|Reply-To)\**\s*:\**\s*(?P<v>[A-Z].*)$")
_ADDRESS = re.compile(r"<[^<>]*>")


def _people(lines: list[tuple[int, str]], declared: set[str], listed: list[str]) -> tuple[KnownName, ...]:
    """The people the note names by their full name in a list of names (`listed`), before their
    address or in an email's header lines, each a person; their given name alone stands for them where
    only one of them has it (an email signs "Tom" for Tom Ellery; a roster's "Kate" is Kate Mulligan
    of the attendees)."""
    full: dict[str, str] = {n.casefold(): n for n in listed if n.casefold() not in declared}
    for _, text in lines:
        header = _HEADER.match(text) if ":" in text[:20] else None
        names = [_ADDRESS.sub("", _ASIDE.sub("", i)).strip(" *_") for i in re.split(r"[,;]", header.group("v"))] \
            if header else []
        if "@" in text:
            names += [m.group("name") for m in _ADDRESSED.finditer(text)]
        for name in names:  # (a header's field holds people, however common their names' words)
            if person_like(name, placed=bool(header)) and name.casefold() not in declared:
                full.setdefault(name.casefold(), name)
        if not header and (name := _role_field(text)) and name.casefold() not in declared:
            full.setdefault(name.casefold(), name)
    firsts: dict[str, list[str]] = {}
    for name in full.values():
        firsts.setdefault(name.split()[0].casefold(), []).append(name)
    out = []
    for name in full.values():
        # (a full name written in lower case, "gerald fenn", is found in any case, spelled capitalised)
        spelled = " ".join(w[:1].upper() + w[1:] for w in name.split()) if name[:1].islower() else name
        given = spelled.split()[0]
        alias = (given,) if len(firsts[given.casefold()]) == 1 else ()
        out.append(KnownName(spelled, "person", alias, cased=name[:1].isupper()))
    return tuple(out)


def _role_field(text: str) -> str:
    """The person a field of one person names: a label whose last word is a role noun (`ROLE_NOUNS`:
    "Owner", "Account manager", "Tech lead"), then one full name shaped as a person's, an aside after
    it at most ("Owner: Rafael Costa (warehouse systems)"); "" for any other line ("Site: Kings Meadow",
    "Owner: Payments team", "Owner: Rafael Costa and Bo Tran")."""
    line = text.strip()
    m = _LIST.match(line) if ":" in line else None  # (a label and its value, as a list of names is written)
    if not m or line[:m.start("items")].strip(" -*+:").split()[-1].casefold().removesuffix("s") not in ROLE_NOUNS:
        return ""
    name = _ASIDE.sub("", m.group("items")).strip(" *_.")
    return name if person_like(name) and " and " not in name and not _PARTS.search(name) else ""


def _lines(doc: Document) -> list[tuple[int, str]]:
    """(source line, text) of every line of the note's paragraphs and list items, in order, and an
    email's header lines a note keeps in a code block (a pasted thread: "```\nFrom: Helen Marsh <…>")."""
    out: list[tuple[int, str]] = []
    for block in doc.blocks:
        if block.kind in ("paragraph", "item"):
            out += [(block.lines[k] if k < len(block.lines) else block.start + k, t)
                    for k, t in enumerate(block.text.split("\n"))]
        elif block.kind == "code":  # (the fence is the block's first line)
            out += [(block.start + 1 + k, t) for k, t in enumerate(block.text.split("\n")) if _HEADER.match(t)]
    return out


def with_roster_names(profile: Profile, doc: Document) -> Profile:
    """The profile plus the people the note's places for people name (the profile's entries win)."""
    declared = [n for n in roster_names(doc) if profile.known(n.name) is None]
    if not declared:
        return profile
    return Profile(profile.names + tuple(declared), profile.ignore_headings)


def _opener(text: str) -> str:
    """The one word a line opens with before a separator, when what follows is said in lower case."""
    m = _OPENER.match(text.strip())
    if not m or not (m.group("rest")[:1].islower() or m.group("rest")[:1].isdigit() or m.group("sep").strip() != ":"):
        return ""  # ("Status: Accepted" is a field; "Jules — Zapier flow …" a task)
    word = m.group("name")
    low = word.casefold()
    return "" if low in wd.FUNCTION_WORDS or low in wd.CALENDAR or low in _CLOSED else word


def _close(run: list[tuple[str, int]], named: set[str], slots: dict[str, set[int]]) -> None:
    """A run of lines opening with a word: a roster when its words differ and are mostly names (see
    `mostly_names`); where most of its words are capitalised, one in lower case is no member ("meter: …"
    among "Marek: …" lines)."""
    capitalised = sum(w[:1].isupper() for w, _ in run)
    members = {w.casefold() for w, _ in run if w[:1].isupper() or 2 * capitalised <= len(run)}
    if len({w.casefold() for w, _ in run}) >= ROSTER_MIN and mostly_names(members):
        named.update(members)
    for word, line in run:
        slots.setdefault(word.casefold(), set()).add(line)


def _labels_among(members: set[str], listed: set[str]) -> set[str]:
    """The ordinary words (COMMON_ZIPF or more) opening a roster's lines that the note's list of people
    leaves out where it lists most of the rosters' members: a line's label, not a person ("- Fleet: 52
    iPads in service" among "- Fiona: …", "- Aoife: …" under "Attendees: Aoife, Capt. Fiona Grant, Dev")."""
    if not listed or 2 * len(members & listed) < len(members):
        return set()
    return {w for w in members - listed if wd.zipf(w) >= wd.COMMON_ZIPF}


def mostly_names(words: set[str] | list[str]) -> bool:
    """Are these a list's or roster's words mostly names: half of them words English does not know
    (ROSTER_RARE_ZIPF), or more than half no ordinary word (COMMON_ZIPF) and one a word English does not
    know? Given names are often frequent words ("Tom", "Grace"); among names, they are names too."""
    n = len(words)
    rare = sum(wd.zipf(w) < ROSTER_RARE_ZIPF for w in words)
    return n > 0 and (2 * rare >= n or (rare >= 1 and 2 * sum(wd.zipf(w) < wd.COMMON_ZIPF for w in words) > n))


def _listed(text: str) -> tuple[list[str], list[str]]:
    """The single capitalised words of a `Label: A, B, C` line of three or more names, and the full
    names among them ("Hannah, Marek, Kate Mulligan"; two full names make a list too: "Deciders: Maya
    Lind, Tomas Ek"; a given name and an initial is one of them, "Tomasz W.", but neither a single word
    nor a full name); or its words in lower case, when most of them are
    no English words ("present: priya, tom, ade, mel")."""
    m = _LIST.match(text.strip())
    if not m:
        return [], []
    said = _SENTENCE_END.split(_TITLE_DOT.sub(r"\1 ", _ASIDE.sub("", m.group("items"))), maxsplit=1)[0]  # (". Apologies: Lukas": another label's)
    items = [i.strip(" .*_") for i in _ITEM_GAP.split(said)]
    items = [i for i in items if i]  # (a trailing comma)
    if len(items) >= 3 and all(_LOWER_NAME.fullmatch(i) or _ONE_NAME.fullmatch(i) for i in items) \
            and 2 * sum(bool(_LOWER_NAME.fullmatch(i)) for i in items) > len(items) \
            and mostly_names([i.casefold() for i in items]):
        # a list written in lower case ("present: priya, tom, ade, mel", a capitalised name or two among
        # them: "attendees: priya, tom, jun, Dana"): names when most are no English words
        return [i for i in items if i not in wd.FUNCTION_WORDS], []  # (a calendar word: `_undated`)
    if (lower := _lower_full_names(items)) is not None:
        return lower
    items = [_untitled(i) for i in items]  # ("Capt. Fiona Grant": Fiona Grant)
    full = len(items) >= 2 and all(person_shape(i) for i in items) and not _HEADER.match(text.strip())
    # (two full names no ordinary word makes: "Deciders: Maya Lind, Tomas Ek"; an email's header is read apart)
    if (len(items) < 3 and not full) or not all(_ONE_NAME.fullmatch(i) or person_like(i) or _INITIALLED.fullmatch(i)
                                                for i in items):
        return [], []
    items = [i for i in items if not _INITIALLED.fullmatch(i)]  # (a name and an initial is a person's, named no further)
    return [i for i in items if _ONE_NAME.fullmatch(i) and i.casefold() not in wd.FUNCTION_WORDS
            and i.casefold() not in wd.CALENDAR], [i for i in items if " " in i]


def _lower_full_names(items: list[str]) -> tuple[list[str], list[str]] | None:
    """A list of three or more names some of which are full names written in lower case ("deciders:
    dana, kim, gerald fenn", "present: dana okafor, priya nand, Hal Brennan, raj"): each item one to
    three words of letters, one of them at least two words in lower case, its words mostly names
    (`mostly_names`) and none a function word; (its single words, its full names) as `_listed` gives
    them, or None for any other list."""
    parts = [i.split() for i in items]
    if len(items) < 3 or not any(len(p) >= 2 and p[0].islower() for p in parts) or not all(
            1 <= len(p) <= 3 and all(_LOWER_NAME.fullmatch(w) or _ONE_NAME.fullmatch(w) for w in p) for p in parts):
        return None
    words = [w.casefold() for p in parts for w in p]
    if any(w in wd.FUNCTION_WORDS for w in words) or not mostly_names(words):
        return None
    return [i for i in items if " " not in i and i.casefold() not in wd.CALENDAR], [i for i in items if " " in i]


_TITLE_DOT = re.compile(r"\b(" + "|".join(sorted(HONORIFICS)) + r")\.\s+")  # ("Capt. Fiona": no sentence ends)


def _untitled(item: str) -> str:
    """A list item without the title before a person's full name ("Capt. Fiona Grant" → "Fiona Grant")."""
    title, _, rest = item.partition(" ")
    return rest if title.rstrip(".") in HONORIFICS and person_like(rest) else item


def _continued(lines: list[tuple[int, str]], n: int) -> str:
    """Line `n`'s text, with the next line's when it ends with a comma there and the next line goes on
    (an attendees list wrapped: "Attendees: Priya Nair, Mo Rahman (site mgr),\nGary Holt, Jen Clarke")."""
    line, text = lines[n]
    if n + 1 < len(lines) and text.rstrip().endswith(",") and lines[n + 1][0] == line + 1 and _LIST.match(text.strip()):
        return text.rstrip() + " " + lines[n + 1][1].strip()
    return text


def _speakers(lines: list[tuple[int, str]]) -> list[str]:
    """The full names of a chat's turn headers (`_SPEAKER`), when the note has two or more: its people. A
    turn header is a place for a person, as an email's `From:` is: its name may be all ordinary words
    ("**Marcus Bell** 8:02 AM"; `person_like`'s `placed`)."""
    found = [m.group("name").strip() for _, text in lines if text.startswith("**") and (m := _SPEAKER.match(text))]
    return [n for n in found if person_like(n, placed=True)] if len(found) >= SPEAKERS_MIN else []


def _bold(text: str) -> list[str]:
    m = _BOLD.match(text.strip())
    return [m.group("name")] if m else people_heads.turn_head(text)  # ("**suni** 09:12")


def _spell(spelled: dict[str, str], word: str) -> None:
    key = word.casefold()
    if key not in spelled or (word[:1].isupper() and not spelled[key][:1].isupper()):
        spelled[key] = word
