"""The words of a sentence that may be or begin a name, and the tokens that never are one.

A name is read from the words the text marks: a capital ("Priya", an inner one: "PagerDuty"), an inner
digit or separator ("k8s", "billing-api"), a code span, a handle ("@priya"), a chat channel with a hyphen
("#ops-platform"). `tokens` picks those words out of a sentence with their offsets, trailing punctuation
off ("C++." ends a sentence, "C++" keeps its suffix; "C#" and "F#" keep theirs, and a capitalised word
its edition's "+": "XProtect Professional+", "Dagster+"), and leaves out what is
never a name however it is written (`junk_token`): a file name, an env_VAR, a line anchor, a verb made
with an apostrophe ("OK'd"), an adjective compound ("DevOps-specific") — unless, right after a name, it
is a model's designation ("Makito X4", `kctui.compiler.builtin.models`).

Why a module of its own: which words may make a name is a question of each word's shape alone. How the
words join into one name is `kctui.compiler.builtin.names`; whether the span is a name, and could title
a page, is `kctui.compiler.builtin.name_checks`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.compiler.builtin import models
from kctui.compiler.builtin.words import FUNCTION_WORDS, PREFIXES, SUFFIX_SHAPE

_INTERESTING = re.compile(
    r"`[^`\n]{1,60}`|@(?<![\w.@/]@)[A-Za-z][\w-]{1,38}(?![\w/.@-])|"
    r"#(?<![\w&/#]#)[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w#-])|(?<![\w'’.&+/@-])"
    r"(?:[^\W\d_a-z]|[a-z]++[A-Z0-9]|[a-z][a-z0-9]*+[-_.][a-z0-9]|\d{1,2}(?=[A-Z][a-z]{4}))[\w'’.+-]*"
)  # (possessive: what follows a run of lower-case letters is never one, so giving some back cannot help;
# a number glued to a capitalised word of five letters or more opens a name: "1Password"; not a unit, "1Gbps")
# (a handle's "@" and a channel's "#" are matched before what stands before them is looked at: two
# lookbehinds fewer at every position of a sentence, the same tokens)
_TRAIL = ".'’+-"
# a capitalised word and one "+" glued to it: the edition a product's name ends with ("Professional+",
# "Dagster+", "Disney+"), part of the name (not after a digit: "3.9+", "SEV2+" say "or more")
_PLUS_EDITION = re.compile(r"^[A-Z][A-Za-z]*[a-z]\+$")
# a file name, an env_VAR, a line anchor: never a name (a code span is read against it too)
JUNK_TOKEN = re.compile(r"_|\.(?:md|MD|txt|json|ya?ml|go|ts|tsx|js|py|rs|gz|tar|toml|sh|html|css|sql|lock)$|^[A-Z]\d"
                        r"|['’](?:e?d|ing)$")  # (a verb made of a word with an apostrophe: "OK'd", "RMA'd", "DM'ing")


@lru_cache(maxsize=65536)
def junk_token(token: str) -> bool:
    """A file name, an env_VAR, a line anchor, an adjective compound: never a name."""
    return _junk(token)


@lru_cache(maxsize=65536)
def _junk(token: str) -> bool:
    return bool(JUNK_TOKEN.search(token)) or ("-" in token and _compound(token))


@lru_cache(maxsize=65536)
def _compound(token: str) -> bool:
    """An adjective compound ("DevOps-specific", "Cloud-like", "external-to-EPD"), not a name."""
    parts = [p for p in token.split("-") if p]
    if len(parts) < 2:
        return False
    if parts[0][:1].isupper() and parts[-1].islower() and len(parts[-1]) > 2:
        return True  # ("Co-op", "Wi-fi": a word's own hyphen, not a compound modifier)
    if parts[0] in PREFIXES and not any(ch.isalpha() for ch in "".join(parts[1:])):
        return True  # "post-1.0", "pre-2024": an English prefix on a number
    # (a part of digits is no capital: "etl-01", "ledger-pg-2" are identifiers, not "external-to-EPD")
    return any(p.casefold() in FUNCTION_WORDS for p in parts[1:-1]) or (
        parts[0].islower() and not parts[-1].islower() and any(ch.isupper() for ch in parts[-1]))


def tokens(plain: str) -> list[tuple[str, int, int]]:
    """(token, start, end) of the words of a sentence that may be or begin a name: capitalised or shaped
    words, code spans, handles, identifiers; trailing punctuation and junk (file names, env_VARS) left out."""
    toks = []
    for m in _INTERESTING.finditer(plain):
        tok = m.group(0)
        if tok[-1] in _TRAIL and tok[0] != "`":
            core = tok.rstrip(".'’-")  # "C++." ends a sentence; "C++" keeps its suffix
            tok = core if (core.endswith("++") and SUFFIX_SHAPE.match(core)) or _PLUS_EDITION.match(core) \
                else tok.rstrip(_TRAIL)
            if not tok:
                continue
        if plain[m.start() + len(tok): m.start() + len(tok) + 1] == "#" and tok.isalpha() and len(tok) <= 2 \
                and not plain[m.start() + len(tok) + 1: m.start() + len(tok) + 2].isalnum():
            tok += "#"  # C#, F#
        if tok[0] != "`" and _junk(tok) and not (
                models.designation(tok) and models.after_name(plain, m.start(), toks[-1] if toks else None)):
            continue  # env_VARS, file names, line anchors, "Cody-related": not names ("Makito X4" is a model)
        toks.append((tok, m.start(), m.start() + len(tok)))
    return toks
