"""Things named by identifiers with underscores, by how the document writes them, not by their words.

A data team names its tables, jobs, warehouses and routes in snake case (`fct_shipment_legs`,
`TRANSFORM_WH`, `ADT_OUT_OMNICELL`), and code names its variables, settings and functions so (`pool_mode`,
`max_idle_time`, `read_exact`). Their words cannot tell the two apart ("ledger_entries" is a table of
ordinary words); their use can: a setting is written with its value (`pool_mode=session`, `python_min:
3.10`, `cl_waiting > 20`, "wal_keep_size bumped to 2GB") or after the thing it sets ("TRANSFORM_WH
auto_suspend"), a function is called (`alter_job(…)`), a column or a key sits in a call, a path or a
template (`orders(user_id`, `<run_id>/`), a member after a dot (`settlement_runs.status`), a method opens
with a function word (`into_inner`); a document names a thing as a word of its own, bare in its prose
(not only in code spans, in quotes or in a table's cells, a schema's fields: "| app_os | …"); and a
document that shows code (a block of it, or inline code spans holding code) writes its identifiers as the
code's. An identifier a document without code names so and never writes as a setting is a candidate name
like any other (recall: a page where the document states a fact of it in two sentences or a value right
beside it; a passing mention, a page once another source names it too, where it says less). A hyphenated
identifier in a code span of its own is read the same way ("`label-requests`"; bare, names.py reads it).
A code span the noun right before it types, after a name, an acronym or a determiner ("the SQS queue
`label-requests`", "PagerDuty service `lns-chirpstack`"), names the one thing of that kind: a page on that
one mention; so does a record named by its kind's acronym and its number ("PR #817"), a record's
identifier as "CHG-0342" is. (The older rule of kctui.compiler.builtin.coined still names an identifier
with a word English lacks at a sentence's start or before a value, in any document.)
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import Unit
from kctui.compiler.readers import Document
from kctui.core.slugs import identity_key

# an identifier of two parts or more joined by underscores; or by hyphens, in lower case, in a code span of
# its own (bare, a hyphenated identifier is read by kctui.compiler.builtin.names: "billing-api", "etl-01")
_TOKEN = re.compile(r"(?<![\w\\-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w\\-])"
                    r"|(?<=`)[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?=`)")
# what follows a setting, a call or a key: a value after `=`, a comparison, a call's bracket or a macro's
# `!`, a `: value`, a path, a member (`.x`, `::x`), a template's closing bracket, or a new value a word or
# two on ("bumped to 2GB", "300s → 60s")
_SETTING_AFTER = re.compile(r"`?(?:\s*(?:=|[<>]=?|!=)|[(!\[{/>]|,\w|:\s*[\d`'\"<>=~^]|::|\.\w|"
                            r"(?:\s+[^\s_]+){0,2}?\s*(?:→|->|\bto\b)\s*[\d`'\"])")
# what stands before a key or a member: a call's, a list's or an attribute's bracket ("activities(user_id",
# "#[macro_export]"), a member's dot or path ("self.read_exact", "io::read_exact"), a variable's sign, an
# address or a path, or the identifier whose setting it is ("TRANSFORM_WH auto_suspend")
_KEY_BEFORE = re.compile(r"(?:\w\(|[\[{$<.@/#]|::|[A-Za-z0-9]_[A-Za-z0-9]+`? )`?$")


def _occurrences(plain: str) -> list[re.Match[str]]:
    return [m for m in _TOKEN.finditer(plain) if "_" in m.group(0) or not _english(m.group(0))] \
        if "_" in plain or "`" in plain else []


def _english(token: str) -> bool:
    """A hyphenated token English makes (a compound, "read-only"), or a version ("v1-2")."""
    return wd.english_compound(token) or bool(wd.VERSIONISH.match(token))


def _as_setting(plain: str, m: re.Match[str]) -> bool:
    """Is this occurrence written as a setting, a call, a member or a key (its value, a bracket, a dot or
    a path beside it; a file's name is a member's dot)?"""
    return as_setting(plain, m.start(), m.end())


def as_setting(plain: str, start: int, end: int) -> bool:
    """`_as_setting` of the text between `start` and `end`."""
    return bool(_SETTING_AFTER.match(plain, end) or _KEY_BEFORE.search(plain, max(0, start - 40), start))


_CODE_SPAN_ANY = re.compile(r"`[^`\n]*`")
_KEBAB_SPAN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
# an inline code span that holds code: a call, a path, a type's brackets, a reference, a block, a statement
_CODE_SPAN = re.compile(r"`[^`\n]*(?:\(|::|<|&|\{|;|->|=>|\[)[^`\n]*`")
CODE_SPANS = 3  # the inline code spans holding code that make a document one that shows code


def shows_code(doc: Document) -> bool:
    """Does the document show code: a block of code, or CODE_SPANS inline code spans holding code (a
    call, a path, a type, a reference: "`fn as_mut(&mut self)`", "`Vec<T>`")? A team's notes quote a
    command or a query now and then; a proposal for a language or an API writes code in every paragraph."""
    if any(b.kind == "code" for b in doc.blocks):
        return True
    return sum(len(_CODE_SPAN.findall(line)) for line in doc.lines if "`" in line) >= CODE_SPANS


def named(us: list[Unit], doc: Document) -> frozenset[str]:
    """The identity keys of the identifiers the document's sentences name as words of their own, bare
    (not in a code span) in prose or a list item (not only in a table's cells, a schema's fields), or as
    the one thing of a kind (`typed`: "the Fivetran connector (`wms_prod`)"), that no
    line of the document writes as a setting, a call, a member or a key; none in a document that shows
    code (a block of code: its identifiers are the code's variables and functions)."""
    if shows_code(doc):
        return frozenset()
    settings = settings_of(doc)
    bare = {identity_key(m.group(0)) for u in us if u.kind != "row" for m in _occurrences(_CODE_SPAN_ANY.sub(_blank, u.plain))
            if _bare(u.plain, m)}
    return frozenset(k for k in (bare | typed_in([u.plain for u in us])) - settings if not _method(k))


def settings_of(doc: Document) -> frozenset[str]:
    """The identity keys of the identifiers with underscores or hyphens some line of the document writes
    as a setting, a call, a member or a key (`_as_setting`)."""
    return frozenset(identity_key(m.group(0)) for line in doc.lines for m in _occurrences(line) if _as_setting(line, m))


def _method(key: str) -> bool:
    """An identifier opening with a function word names a method or a function (a verb phrase of code:
    "into_inner", "as_ref", "is_empty", "to_string"), not a thing."""
    return re.split(r"[-_ ]", key, maxsplit=1)[0] in wd.FUNCTION_WORDS


def _blank(m: re.Match[str]) -> str:
    """A code span holding more than one hyphenated identifier blanked out (its words are code's)."""
    inner = m.group(0)[1:-1]
    return m.group(0) if _KEBAB_SPAN.fullmatch(inner) else " " * len(m.group(0))


def _bare(plain: str, m: re.Match[str]) -> bool:
    """Is the identifier written as a word of the sentence: not in quotes or a code span's mark beside it
    ("called a "monthly_count" in the pings", a code span broken over lines), a hyphenated one in a code
    span of its own?"""
    before, after = plain[m.start() - 1:m.start()], plain[m.end():m.end() + 1]
    if "-" in m.group(0) and "_" not in m.group(0):
        return before == after == "`"
    return before not in ('`', '"', "“", "'") and after not in ("`", '"', "”", "'")


def spans(plain: str, named: frozenset[str]) -> list[nm.Span]:
    """The spans of the sentence that write one of the `named` identifiers."""
    if not named:
        return []
    out = []
    for m in _occurrences(plain):
        if identity_key(m.group(0)) in named:
            start, end = m.start(), m.end()
            if plain[start - 1:start] == "`" and plain[end:end + 1] == "`":
                start, end = start - 1, end + 1  # (a code span of its own)
            out.append(nm.Span(m.group(0), start, end, start == 0, "snake", (m.group(0),)))
    return out


# a code span of one identifier right after the noun that says what it is, itself after a name, an acronym
# or a determiner: "the SQS queue `label-requests`", "PagerDuty service `lns-chirpstack`", "B2 bucket `x`"
_DETERMINERS = ("the", "a", "an", "our", "their", "its", "this", "that", "new", "old")
_TYPED = re.compile(rf"(?P<lead>\b(?i:{'|'.join(_DETERMINERS)})|[A-Z][\w.-]*)"
                    r" (?P<noun>[a-z]{3,}) \(?`(?P<ident>[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+)`")
# what _TYPED cannot match without, from the space before its noun (a code span of two parts or more
# after a lower-case word): looked for first, where _TYPED tries its words at every position
_TYPED_NEED = re.compile(r" [a-z]{3,} \(?`[A-Za-z][A-Za-z0-9]*[-_][A-Za-z0-9]")


def typed(plain: str) -> frozenset[str]:
    """The identity keys of the identifiers the sentence types by a noun right before their code span:
    named as the one thing of that kind (a page on this one mention, as "X, a database" would be), not a
    verb's object ("reset pgbouncer `pool_mode`": a verb, no name or determiner, before the word)."""
    if "`" not in plain or not _TYPED_NEED.search(plain):
        return frozenset()
    return frozenset(identity_key(m.group("ident")) for m in _TYPED.finditer(plain) if _typing_lead(m)
                     and (noun := m.group("noun")) not in wd.FUNCTION_WORDS and noun not in _DETERMINERS
                     and not noun.endswith(("ed", "ing"))
                     and not _english(m.group("ident")) and not _SETTING_AFTER.match(plain, m.end()))


def _typing_lead(m: re.Match[str]) -> bool:
    """Is the word before the noun a determiner or a name (not a pronoun: "We expect `x` to …")?"""
    lead = m.group("lead")
    return lead.casefold() in _DETERMINERS or lead.casefold() not in wd.FUNCTION_WORDS


def typed_in(texts: list[str]) -> frozenset[str]:
    """`typed` over the document's sentences."""
    return frozenset(k for plain in texts for k in typed(plain))


# a record named by its kind's acronym and its number: "PR #817", "CR #2231" (not a heading's "#", "# 2")
_NUMBERED = re.compile(r"[A-Z](?<![\w#/-][A-Z])[A-Z]{1,4} #\d{2,7}(?![\w-])")  # (the capital first: the scan skips to it)


# a ticket's or an issue's number alone: "#" and three digits or more, not inside a word, an entity
# ("&#8217;") or a path, not a number's part ("#26-00311")
_BARE_NUMBER = re.compile(r"(?<![\w&#/-])#\d{3,9}(?![\w-])")


def numbered_records(plain: str) -> list[nm.Span]:
    """The spans of the sentence that name a record by an acronym of its kind and its number ("PR #817"),
    or by its number alone ("ticket #4471 closed", "#48291 cable unplugged"): a record's identifier, as
    "CHG-0342" is (kctui.compiler.builtin.named_once)."""
    if "#" not in plain:
        return []
    out = [nm.Span(m.group(0), m.start(), m.end(), m.start() == 0, "record", tuple(m.group(0).split()))
           for m in _NUMBERED.finditer(plain)] if " #" in plain else []
    taken = [(s.start, s.end) for s in out]
    return out + [nm.Span(m.group(0), m.start(), m.end(), m.start() == 0, "record", (m.group(0),))
                  for m in _BARE_NUMBER.finditer(plain) if not any(a <= m.start() < b for a, b in taken)]

