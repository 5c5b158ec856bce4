"""Names written in a name's shape get a page on one mention where their sentence states a fact (issue 31).

"A name with a stated fact gets a page with that fact cited; a bare passing mention stays on the source
page only": one mention is enough. kctui.compiler.builtin.recall finds which names a sentence states a
fact about (`about`); a name needs more than that for a page on one mention, since a capital alone says
little (a sentence start, a heading word, a role). What more is said here by the name's own form, in a
sentence that holds a value outside the names (a number, a date, an amount — `value_spans`), wherever
the name stands in it ("the PgBouncer pool (size 60)", "the existing IBM TS4300 tape library"):

- **a shaped word at its end** — an inner capital or letters and digits ("PgBouncer", "Open OnDemand",
  "Sectra IDS7", "ES400NVX"); not a word English has ("iPad", "Wi-Fi": `wordfreq` knows them), not one
  in lower case with a digit ("m6i", "wk49", "arm64": sizes, weeks, architectures; a host's number has
  its own rule, `recall.numbered`), not a word and one trailing digit ("SEV2", "UTC-8", "BSD-3": a level,
  an offset, a licence's clause), not a contraction ("RMA'd") or a placeholder;
- **capitalised words and a model's designation** (`model_named`: "the existing IBM TS4300 tape library",
  "Hetzner AX42", a series' capitals and a hyphen before it, "Brother HL-L8360", a model's number of three
  or four digits, "APC Smart-UPS 1500", a generation after it, "ThinkPad E14 Gen 6"); recall gives one a
  page wherever its sentence states a fact of it, value or not ("It's the Epson TM-T88VI, …", "Kestrel
  K14 (current model)": session 22, notes a-al 4 things more, 3 new pages no label names, all models;
  the handbook's pages unchanged);
- **capitalised words, two or more** ("Workforce Identity", "Cathay Pacific", "Declan Moore"), not all of
  them ordinary words, each a word with one capital ("Slurm QOS", "EOW Kenji": an acronym glues names
  together), after a lower-case word or a comma unless its first word is a rare word with no English
  ending ("Citrix Workspace rollout to 2403 …"; not "Revisit Quistbrand for …", "Preconfigured Zorvana
  dashboards ship with 12 …", "Sent: 2 May 08:15 Hi Lena, …");
- not one capitalised word alone (but alone in brackets, below), nor an acronym alone: one rare word written as a name with a value
  elsewhere in its sentence was tried (notes a-u: 12 things more, 25 of 36 new pages labelled, precision
  -0.3 points; "argued about Grafterly" beside a count is a bare mention, tests/unit/test_recall_rules.py),
  and a lone acronym is mostly vocabulary (SLA, TLS, CSV, UAT: 9 of 50 new pages labelled);
- **a record's identifier** — capitals, a hyphen and two digits or more (perhaps with parts between:
  "PO-2026-0147", "FD-Q-20417"), or capitals and six digits or more ("RC-1187", "CHG0041187", "KB5046617"),
  or "#" and three digits or more alone, a ticket's, a case's or a build's number ("ticket #4471 closed",
  "#48291 cable unplugged"; session 22, notes a-al: 20 labelled things more, the 14 new pages no label
  names all tickets, cases, builds or invoices) — in any sentence of four words or more that names
  it: the sentence is what is known of that ticket, change or update ("fjord-g03 is still drained
  (RC-1187)"), value or not;
- **the name its line opens, set off** by a dash or a bracket from two words or more the line says of it
  (`line_topic`, session 24: "Rackspace - old hosting, ended 2023", "Adrián (VLC1 maintenance) happy"), or
  a shaped name by a colon ("GitLab: `lab-informatics` group, Developer role"), value or not: the line is
  about it (notes: 14 new pages, 12 labelled; a name's shape and another name in its sentence were tried
  instead and fail: 45 new pages, 33 % labelled); not a name in bold alone, the item's label;
- **one capitalised word alone in brackets after a word** (`bracketed`, session 18): an apposition, the
  name the writer gives what the words before it speak of ("our integration engineer (Owen)", "Caledon
  (Ross) on site Thu 19", "rc1 tagged — Nov 18 (Ken)", "Microsoft (Nuance) | … | $37,620"), however
  common its word (a given name). A bracket opens a sentence for the candidates' rules (a capital after
  it says nothing), but a word alone in it after a word of the sentence is a name; the apposition is a
  fact stated of it (recall) in a sentence with a value, or, without one, where English does not have
  the word (an English word glosses: "HTTP (Web) server", "regular (Weekly) releases", "WCAG compliance
  (Accessibility)"). Not a word the document writes in lower case, nor a very
  frequent one ("(Business)", "(Director)": a plan, a role), a day or month, an acronym ("(UTC)",
  "(CTO)": a zone, a role), a function word, the name right before it written short ("Tomasz Wierzbicki
  (Tom)": the same person), nor a word after an amount ("$6,500/month (Enterprise)": its plan or tier).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.stated_values import http_errors

_RECORD = re.compile(r"[A-Z]{2,12}(?:-[A-Z0-9]{1,6})*-\d{2,6}|[A-Z]{2,5}\d{6,}|[A-Z]{2,5} #\d{2,7}")
_ONE_TRAILING_DIGIT = re.compile(r"[A-Za-z]+-?\d")  # SEV2, UTC-8, BSD-3, RSALv2
_WORD = re.compile(r"[A-Za-z]+")
# capitalised words, then a model's designation: capitals and a number ("IBM TS4300", "Hetzner AX42",
# "Cloudflare R2"), perhaps a variant after a hyphen ("Meraki MS130-48P"), or a series' capitals, a
# hyphen, and capitals and a number ("Brother HL-L8360", "Epson TM-T88VI"; not a record's "SRE-882": a
# designation's number follows a capital), and perhaps a word after it (also recall's, for a name a
# value stands next to)
MODEL = re.compile(r"^[A-Z][\w-]*(?: [A-Z][\w-]*)* (?:[A-Z]{1,3}\d{1,5}[A-Z]{0,2}(?:-\d{1,3}[A-Z]{1,2})?"
                   r"|[A-Z]{1,3}-[A-Z]{1,2}\d{1,5}[A-Z]{0,3}|(?!(?:19|20)\d\d\b)[1-9]\d{2,3}[A-Za-z]{0,2})"
                   r"(?: [A-Z][a-z]+(?: [1-9]\d?)?)?$")
RECORD_WORDS = 4  # the words a sentence needs to say something of a record it names


def model_named(name: str, shaped: bool) -> bool:
    """Is the name a maker's or a product's words and a model's designation (`MODEL`)? Written as a shaped
    span (`shaped`), not where its last word is a word and one digit: a level's form, a generation's
    ("Sectra IDS9", "1 TB DDR5"), nor where it is an HTTP error status in the plural ("Fastly 503s")."""
    last = name.rsplit(" ", 1)[-1]
    return bool(MODEL.match(name)) and not (shaped and _ONE_TRAILING_DIGIT.fullmatch(last)) and not http_errors(last)


def record_identifier(text: str) -> bool:
    """A ticket's, a change's or an update's identifier: "RC-1187", "CHG0041187", "PR #817", "#4471" (not "HX-2": one digit; not a
    placeholder of one letter repeated, "YYYY-01-01")."""
    if wd.TICKET_NUMBER.match(text):
        return True
    return bool(_RECORD.fullmatch(text)) and len(set(_WORD.match(text).group())) > 1  # (not "YYYY-01-01", "XX-1234")


def states_of_record(plain: str, span: nm.Span) -> bool:
    """Does the sentence say something of the record identifier it names (four words or more)?"""
    return record_identifier(span.text) and len(_WORD.findall(plain)) >= RECORD_WORDS


def states_of(plain: str, span: nm.Span) -> bool:
    """Does the sentence state a fact of the span by the span's place: a record's identifier it names
    (`states_of_record`), the name it opens, set off from what it says of it (`line_topic`)?"""
    return states_of_record(plain, span) or line_topic(plain, span)


def written_as_name(plain: str, span: nm.Span, valued: bool) -> bool:
    """Is the span of the sentence `plain`, by its form, a name a page is made for on this one mention
    (see the module's docstring)? `valued`: the sentence holds a value outside its names."""
    if record_identifier(span.text) or line_topic(plain, span):
        return True
    if not valued or span.kind not in ("shaped", "caps", "link"):
        return False
    tokens = span.tokens
    if model_named(span.text, span.kind == "shaped"):
        return True  # a maker's or a product's name and a model's designation ("Hetzner AX42", "Dell OptiPlex 7020")
    if span.kind == "shaped":
        return shaped_end(tokens[-1])
    return len(tokens) > 1 and all(t.isalpha() and t[:1].isupper() and t[1:].islower() for t in tokens) \
        and not all(wd.common_word(t) for t in tokens) and not (_fresh(plain, span) and _may_be_a_verb(tokens[0]))


_SET_OFF = re.compile(r"\s*(?:[–—-]\s|\()\s*\S+\s+\S")  # a dash or a bracket, then two words or more
_SET_OFF_COLON = re.compile(r"\s*:\s+\S+\s+\S")


def line_topic(plain: str, span: nm.Span) -> bool:
    """Is the span what its line is about: the name opening it, set off by a dash or a bracket from what
    the line says of it ("Rackspace - old hosting, ended 2023", "Kepware – replaced by …")?"""
    return span.kind in ("caps", "shaped") and not plain[:span.start].strip("*_ ") and (
        bool(_SET_OFF.match(plain, span.end)) or (span.kind == "shaped" and bool(_SET_OFF_COLON.match(plain, span.end))))


def _may_be_a_verb(word: str) -> bool:
    """Could the word opening a sentence or a part of it be an English word capitalised there (a verb, a
    greeting: "Revisit …", "Hi …", "Preconfigured …") rather than part of a name: not rare, or with an
    English ending (`nm.english_ending`)?"""
    return wd.zipf(word) >= wd.RARE_ZIPF or nm.english_ending(word)


_MID_SENTENCE = re.compile(r"[a-z,;]$")


def _fresh(plain: str, span: nm.Span) -> bool:
    """Does the span open its sentence or a part of it (after a colon, a time, a dash, a bracket), where
    an ordinary word is capitalised as a verb or a greeting ("Export Quorvane …", "08:15 Hi Oksana")?
    After a lower-case word or a comma its capital is the text's own."""
    return span.at_start or not _MID_SENTENCE.search(plain[:span.start].rstrip())


def shaped_end(token: str) -> bool:
    """A last word shaped as a name's (`wd.shaped`) that is no English word, no size or week in lower
    case, no level or clause number, no contraction or placeholder."""
    if not wd.shaped(token) or "'" in token or "’" in token or wd.placeholder(token):
        return False
    if (token[:1].islower() and any(ch.isdigit() for ch in token)) or _ONE_TRAILING_DIGIT.fullmatch(token):
        return False
    return not (token.isalpha() and wd.zipf(token) >= wd.RARE_ZIPF)  # ("iPad", "GitHub": English has them)


_BRACKETED = re.compile(r"\((?<=[\w.!?*] \()([A-Z][a-z]{1,24})\)")  # (the bracket first: the scan skips to it)


BRACKETED_ZIPF = 5.0  # a word in brackets at least this frequent is an ordinary word ("(Business)", "(Director)")


def bracketed(plain: str, lower: ug.Lower, valued: bool) -> list[nm.Span]:
    """The capitalised words alone in brackets after a word of the sentence (see the module's docstring),
    as spans only a fact vouches for: not a word the document writes in lower case ("(Enterprise)" where
    it writes "enterprise"), a very frequent word, a day or month, a function word; where the sentence
    holds no value (`valued`), only a word English does not have."""
    if "(" not in plain:
        return []
    return [nm.Span(m.group(1), m.start(1), m.end(1), False, "bracketed", (m.group(1),))
            for m in _BRACKETED.finditer(plain) if _own_word(m.group(1), lower)
            and (valued or wd.zipf(m.group(1)) < wd.RARE_ZIPF)
            and not _short_form(m.group(1), plain[:m.start()]) and not _AMOUNT_BEFORE.search(plain, 0, m.start())]


_AMOUNT_BEFORE = re.compile(r"[$€£¥][^\s(]*\s$")  # "$6,500/month (Enterprise)": the amount's plan or tier


def _short_form(word: str, before: str) -> bool:
    """Is the bracketed word another form of a name right before it, sharing its first two letters
    ("Tomasz Wierzbicki (Tom)", "han (Hanna)"): the same one written short or in full, not a second?"""
    return any(w.lstrip("*_`'\"(")[:2].casefold() == word[:2].casefold() for w in before.split()[-3:])


def _own_word(word: str, lower: ug.Lower) -> bool:
    low = word.casefold()
    return low not in lower and low not in wd.FUNCTION_WORDS and low not in wd.CALENDAR \
        and wd.zipf(word) < BRACKETED_ZIPF
