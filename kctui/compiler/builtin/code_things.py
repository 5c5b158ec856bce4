"""Things a note names in code's shape, set apart in a code span: a job, a table, a queue, a flag, a secret's
path, a branch, a mailbox (issue 31).

A team writes the names of its jobs, tables, feature flags, groups, secrets and branches as code writes
them, and sets them apart in a code span of their own: "the `carrier_invoice_sftp` job", "flag:
`garmin_sync`", "Secrets Manager: `prod/pay360/hmac`", "Branch: `maint/3.4`", "group `SG-Lic-E3`". Such
a span is a thing where its shape is an identifier's (`code_token`: letters, perhaps digits, joined by
`_ - . / @ #`; not a URL, a file's name, a version, a number, a hash, a placeholder, not a command: no
space; not ordinary English words only, a pattern or a convention: "`major.minor`", "`snake_case`") and the document shows no code (kctui.compiler.builtin.identifiers.shows_code: a
proposal for a language writes its variables, features and lints so in every paragraph), nor writes it
anywhere as a setting, a call, a member or a key (`BRK_FX_CACHE=/scratch/…`, identifiers._as_setting).

Named so, it is a thing on one mention where the text says what it is or states a fact of it:

- **typed by the noun beside it** (`kind`): a noun right before it, after a word or a label's colon
  ("via group `SG-Lic-E3`", "for user `FIVETRAN_RO`", "flag: `garmin_sync`"), or right after it, behind a
  determiner or opening its line or cell ("the `permit_issue_retry` queue", "`carrier_invoice_sftp` job |");
  the noun is its kind, as "X, a database" types X;
- **or stated of strongly** by its sentence (kctui.compiler.builtin.recall.about's `strong`): a value
  right beside it ("`stride_premium_monthly` €7.99"), the subject of a sentence that holds a value or
  names another thing ("`tms_daily_loads` port done, row counts match Airflow within 0.02%"), the value
  of a `Label:` line ("Branch: `maint/3.4`").

Its page is titled as written; named in two sentences, or in two sources, it gathers what each says.
Measured (session 23, notes a-ap): things with a page citing their facts 2,674 → 2,717, facts 10,643 →
10,714, labelled precision 73.1 % → 73.1 % (65 new pages, 47 labelled; of the 18 others most are things
the writers left unlabelled: flags, DAGs, branches, channels, a few columns and fields). Ordinary words
only were left out after the handbook and the RFCs (`#code-intel`, `team/NAME`, `snake_case`,
`box_patterns`; endoflife's version schemes `major.minor`): notes 1 thing fewer, 5 unlabelled pages fewer. Any fact in the
sentence (a value anywhere in it, `recall.about`'s first list) instead of a strong one: 8 things more,
but 23 unlabelled pages more (columns, tags, fields: "drop `user_id` tag … by Friday"). At the merge, a
constant or an environment variable in capitals ("`SRC_REPOS_DESIRED_PERCENT_FREE`") became a setting,
and an untyped variable of ordinary words ("`update_commits`") no thing, as name_checks.clean_title has it
for every title: notes a-ap things 2,717 → 2,706 of that gain kept.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.identifiers import as_setting, settings_of, shows_code
from kctui.compiler.builtin.name_evidence import Candidate
from kctui.compiler.builtin.name_tokens import JUNK_TOKEN
from kctui.compiler.builtin.sentences import Unit
from kctui.compiler.readers import Document
from kctui.core.slugs import identity_key

# one code span of one token: letters or digits first, then letters, digits and the joiners code names with
_SPAN = re.compile(r"(?<!`)`([/#]?[A-Za-z0-9][\w.@/#-]*[\w@])`(?!`)")
_JOINER = re.compile(r"[\w@](?:[_.@/#-])\w|@$|^[/#]\w")
_PLACEHOLDER_PART = re.compile(r"(?:^|[-_./])(?:x+|X+)(?:$|[-_./\d])")  # "ws-rem-xx", "v3.x.y", "xxx-salto01"
_HASH = re.compile(r"^[0-9a-f]{7,40}$")
_FILE_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")
_FILE_NAME = re.compile(r"^[^.]*[A-Z_][^.]*\.[a-z]{2,4}$")  # a stem with a capital or an underscore, an extension
_NUMBERISH = re.compile(r"^[v#]?\d[\d.,:/-]*[A-Za-z]{0,3}$")  # a version, a size, a date, a time, a count


def code_token(text: str) -> bool:
    """Is `text` one identifier code names a thing with (see the module's docstring): letters, joined by
    `_ - . / @ #`, not ordinary English words only ("major.minor", "snake_case"), not a URL, a file's name (an extension after a path or a name of code's: "api-hpa.yaml",
    "tests/docker-compose.yml", or after a stem with a capital or an underscore: "RunParameters.xml"), a version or a number ("3.4.0", "12h"), a hash ("a3f9c1e"), a placeholder
    ("x.y"), a method ("into_inner")?"""
    if not any(ch.isalpha() for ch in text) or not _JOINER.search(text) or "://" in text or text.startswith("www."):
        return False
    if _NUMBERISH.match(text) or wd.VERSIONISH.match(text) or _HASH.match(text) or wd.placeholder(text) \
            or _PLACEHOLDER_PART.search(text) or "__" in text:
        return False
    if JUNK_TOKEN.search(text.replace("_", "")) or ("/" in text and _FILE_EXT.search(text)) or _FILE_NAME.match(text):
        return False  # a file's name: "release.yml", "tests/docker-compose.yml", "RunParameters.xml"
    parts = [p for p in re.split(r"[-_./@#]", text.lstrip("/#").casefold()) if p]
    if parts[0] in wd.FUNCTION_WORDS:
        return False  # ("into_inner", "as_ref": a method's verb phrase)
    return not all(p.isalpha() and wd.common_word(p) for p in parts)  # ("major.minor", "snake_case": words')


def named(us: list[Unit], doc: Document) -> frozenset[str]:
    """The identity keys of the code-shaped identifiers the document writes in a code span of their own,
    in prose, a list item or a table's cell, never as a setting (with a value, a call's bracket or a
    member's dot beside it, anywhere in the document: identifiers.as_setting); none in a document that
    shows code."""
    found = {identity_key(m.group(1)) for u in us if "`" in u.plain for m in _SPAN.finditer(u.plain) if code_token(m.group(1))}
    if not found or shows_code(doc):  # (the spans first: most notes have none, and then no line is read again)
        return frozenset()
    settings = settings_of(doc) | {identity_key(m.group(1)) for line in doc.lines if "`" in line
                                   for m in _SPAN.finditer(line) if as_setting(line, m.start(), m.end())}
    return frozenset(k for k in found - settings if not ("/" in k and _in_url(k, doc)))


_URL = re.compile(r"\w+://\S+")


def _in_url(key: str, doc: Document) -> bool:
    """Does the document write this path inside a URL ("pay360/callback" of
    "https://…/api/pay360/callback", "/amos/health" of "http://amos-app-0X:8080/amos/health"): a URL's
    path, not a thing of its own?"""
    return any(key in m.group(0).casefold() for line in doc.lines if "://" in line for m in _URL.finditer(line))


def spans(plain: str, named_keys: frozenset[str]) -> list[nm.Span]:
    """The code spans of the sentence that write one of the `named_keys` identifiers (the span with its marks)."""
    if not named_keys or "`" not in plain:
        return []
    return [nm.Span(m.group(1), m.start(), m.end(), m.start() == 0, "code", (m.group(1),))
            for m in _SPAN.finditer(plain) if identity_key(m.group(1)) in named_keys]


_NOUN = r"[a-z]{2,}|[A-Z]{2,5}"  # a noun in lower case, or an acronym ("DAG", "SSID")
# a noun right before the span, itself after a word that makes it one (a determiner, a preposition, a
# name, a noun before it: "via group", "the terraform repo", "Cloudwatch logs group"), or a label's noun
_BEFORE = re.compile(rf"(?:^|[\s(])(?P<lead>[\w-]+) (?P<noun>{_NOUN}) ?$|(?:^|[(|·•,;]\s*)(?P<label>{_NOUN}|[A-Z][a-z]+): ?$")
_AFTER = re.compile(rf"^ (?P<noun>{_NOUN})(?=\s*(?:$|[.,;:()|])| (?:{'|'.join(sorted(wd.FUNCTION_WORDS))})\b)")
_LEAD_AFTER = re.compile(r"(?:^|[\s(|*])(?:the|a|an|our|their|its|this|that|each|per)\s$|^\s*$|\|\s*$|^[-*+]?\s*$", re.I)
_ADJECTIVES = frozenset("new old same other current default shared main".split())  # (before a noun, no noun)


def kind(plain: str, span: nm.Span) -> str:
    """The noun the sentence types the code span with (see the module's docstring), or "": right before
    it after a word that makes it a noun, or as a label ("via group `SG-Lic-E3`", "flag: `garmin_sync`";
    not a verb opening a task, "try `m7a.16xlarge`"), or right after it behind a determiner or at its
    line's or cell's start, the noun phrase ending there ("the `permit_issue_retry` queue (SQS)",
    "`carrier_invoice_sftp` job |"); never a function word, an adjective, a verb's past or participle."""
    before = _BEFORE.search(plain, max(0, span.start - 40), span.start)
    if before and before.group("label") and _noun(before.group("label")):
        return before.group("label").casefold()
    if before and before.group("noun") and _noun(before.group("noun")) and _typing(before.group("lead")):
        return before.group("noun")
    after = _AFTER.match(plain[span.end:span.end + 40])
    if after and _noun(after.group("noun")) and _LEAD_AFTER.search(plain[max(0, span.start - 12):span.start]):
        return after.group("noun")
    return ""


def _typing(lead: str) -> bool:
    """Does the word before a noun make it one: a determiner or a preposition, a name (capitalised), or
    a noun of a compound (a word of no verb's ending: "dbt test", "salt state")?"""
    low = lead.casefold()
    if low in wd.FUNCTION_WORDS:
        return low not in nm.AUXILIARIES and low not in ("i", "we", "you", "they", "he", "she", "it", "to")
    return lead[:1].isupper() or (_noun(lead) and not lead.endswith("s") and "-" not in lead)


def _noun(word: str) -> bool:
    low = word.casefold()
    return low not in wd.FUNCTION_WORDS and low not in _ADJECTIVES and not low.endswith(("ed", "ing", "ly")) \
        and low not in nm.AUXILIARIES


def stated_once(plain: str, code_spans: list[tuple[nm.Span, str]], keys: list[str]) -> dict[str, str]:
    """The keys of the sentence's code-shaped identifiers (`code_spans`, of `spans`) that are a thing on
    this one mention, each with its kind ("" where no noun types it): typed by a noun beside it (`kind`),
    or one the sentence states a fact of (`keys`, kctui.compiler.builtin.recall.about)."""
    out: dict[str, str] = {}
    for span, key in code_spans:
        noun = kind(plain, span)
        if _CONSTANT.fullmatch(span.text.strip("`")):
            continue  # a constant or an environment variable ("`SRC_REPOS_DESIRED_PERCENT_FREE`"): a setting
        if noun or (key in keys and not wd.code_identifier(span.text.strip("`"))):
            out[key] = out.get(key) or noun  # (untyped, a variable of ordinary words is no title: name_checks)
    return out


_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


def once_named(plain: str, spans: list[tuple[nm.Span, str]], strong: list[str], cands: dict[str, Candidate],
               code_ids: frozenset[str]) -> list[str]:
    """The keys of the sentence's names that are code-shaped identifiers of the document (`code_ids`, of
    `named`) and a thing on this one mention (`stated_once`, with `strong`: the names the sentence states
    a fact of strongly, kctui.compiler.builtin.recall.about), each candidate typed by its noun."""
    if not code_ids or "`" not in plain:
        return []
    found = stated_once(plain, [(s, k) for s, k in spans if k in code_ids and s.kind == "code"], strong)
    for key, noun in found.items():
        if noun and not cands[key].entity_type:
            cands[key].entity_type = noun
    return list(found)
