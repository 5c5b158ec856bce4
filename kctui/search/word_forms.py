"""The other forms of a question's word that English spells apart, for matching raw passages (BM25,
kctui.search.passage_index.passage_expression): a question asks in the form its own grammar gives ("How did
Rafa meet Eilidh?", "Who ended up buying the van?", "How many did Sam make?") and the talk that answers tells
it in the past ("I met her at Callum's birthday", "a couple from Dundee bought her", "I made 180"). FTS5's
porter stemmer joins the regular forms (move / moved / moving) and none of the irregular ones (meet / met,
buy / bought, make / made, pay / paid, child / children).

`other_forms(word)` is every other form of the verb or noun `word` is a form of, in the table below (English's
irregular verbs and nouns: a closed class, no corpus's words), without the forms the stemmer already joins to
it; empty for any other word. `with_forms` asks for the other forms of the question's content words that are
rare in the knowledge base (held by at most RARE of its passages: where the talk says "meet" itself often, it
is found by it), in a second BM25 query whose score counts FORMS_WEIGHT of the first's: "went", "came", "got"
are in many turns, and asked for at full weight they cost as many questions as they won (chats 11 won, 9
lost; with RARE and half the weight 10 won, 5 lost). Pure but for the `rank` and `share` it is handed
(tests/unit/test_word_forms.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from kctui.search.query import FUNCTION_WORDS

# base, past, past participle (and other spellings), one verb a line
_VERBS = """
arise arose arisen; awake awoke awoken; bear bore borne born; beat beat beaten; become became become;
begin began begun; bend bent; bet bet; bid bid; bind bound; bite bit bitten; bleed bled; blow blew blown;
break broke broken; breed bred; bring brought; build built; burn burnt; buy bought; catch caught;
choose chose chosen; cling clung; come came come; creep crept; deal dealt; dig dug; do did done; draw drew drawn;
dream dreamt; drink drank drunk; drive drove driven; eat ate eaten; fall fell fallen; feed fed; feel felt;
fight fought; find found; flee fled; fling flung; fly flew flown; forbid forbade forbidden; forget forgot forgotten;
forgive forgave forgiven; freeze froze frozen; get got gotten; give gave given; go went gone; grind ground;
grow grew grown; hang hung; have had; hear heard; hide hid hidden; hit hit; hold held; hurt hurt; keep kept;
kneel knelt; know knew known; lay laid; lead led; lean leant; leap leapt; learn learnt; leave left; lend lent;
let let; lie lay lain; light lit; lose lost; make made; mean meant; meet met; mistake mistook mistaken;
overtake overtook overtaken; pay paid; prove proven; quit quit; read read; rebuild rebuilt; redo redid redone;
repay repaid; rethink rethought; rewrite rewrote rewritten; ride rode ridden; ring rang rung; rise rose risen;
run ran run; say said; see saw seen; seek sought; sell sold; send sent; set set; sew sewed sewn; shake shook shaken;
shine shone; shoot shot; show showed shown; shrink shrank shrunk; shut shut; sing sang sung; sink sank sunk;
sit sat; sleep slept; slide slid; sling slung; speak spoke spoken; speed sped; spell spelt; spend spent;
spill spilt; spin spun; spit spat; split split; spoil spoilt; spread spread; spring sprang sprung; stand stood;
steal stole stolen; stick stuck; sting stung; stink stank stunk; stride strode stridden; strike struck stricken;
string strung; strive strove striven; swear swore sworn; sweep swept; swell swelled swollen; swim swam swum;
swing swung; take took taken; teach taught; tear tore torn; tell told; think thought; throw threw thrown;
tread trod trodden; understand understood; undertake undertook undertaken; undo undid undone; upset upset;
wake woke woken; wear wore worn; weave wove woven; weep wept; win won; wind wound; withdraw withdrew withdrawn;
wring wrung; write wrote written
"""

# singular, plural
_NOUNS = """
child children; person people; man men; woman women; foot feet; tooth teeth; goose geese; mouse mice; ox oxen;
wife wives; knife knives; life lives; wolf wolves; half halves; leaf leaves; loaf loaves; shelf shelves;
thief thieves; calf calves; scarf scarves; hoof hooves
"""

# forms whose other spelling means something else as often: "left" (not right), "lives" (a life's), "ground",
# "lay", "found" (to set up), "bound", "wound", "saw" (a tool), "rose", "lead" (the metal), "fell" (a hill),
# "lie" (untrue), "felt" (the cloth), "spring" (the season), "lit", "bit", "set", "read": only from the base
_AMBIGUOUS = frozenset("""left lives ground lay found bound wound saw rose lead fell lie felt spring lit bit set
read fed born""".split())


def _table() -> dict[str, frozenset[str]]:
    """form -> the other forms of its line (a verb's line found by its regular forms too)."""
    out: dict[str, set[str]] = {}
    for text, verbs in ((_VERBS, True), (_NOUNS, False)):
        for line in text.replace("\n", " ").split(";"):
            forms = line.split()
            if not forms:
                continue
            for key in set(forms) | (_regular(forms[0]) if verbs else set()):
                if key in _AMBIGUOUS and key != forms[0]:
                    continue
                out.setdefault(key, set()).update(f for f in forms if f != key and not _joined(key, f))
    return {k: frozenset(v) for k, v in out.items() if v}


def _regular(base: str) -> set[str]:
    """A verb's third person and -ing forms as a question writes them ("buys", "buying", "making", "running"):
    keys to find its table line by, whatever the spelling rule (a wrong guess finds nothing)."""
    stem = base[:-1] if base.endswith("e") and not base.endswith("ee") else base
    return {base + "s", base + "es", stem + "ing", base + base[-1] + "ing", base + "ing"}


def _joined(a: str, b: str) -> bool:
    """Whether porter's stemmer already joins the two, roughly: one is the other with a regular ending."""
    short, long = sorted((a, b), key=len)
    stems = (short, short + short[-1], short[:-1] if short.endswith("e") else short)
    return any(long.startswith(s) and long[len(s):] in ("", "s", "es", "ed", "d", "ing") for s in stems)


_FORMS = _table()


@lru_cache(maxsize=4096)
def other_forms(word: str) -> frozenset[str]:
    """The other forms of the irregular verb or noun `word` is a form of (casefolded), without those the
    stemmer already joins to it; empty for a word not in the table."""
    return _FORMS.get(word, frozenset())


def query_forms(words: set[str] | frozenset[str], share: Callable[[str], float] = lambda _w: 0.0) -> list[str]:
    """The other forms (`other_forms`) of the query's words that are rare in the knowledge base (`share`: the
    share of its passages that hold a word; at most RARE), in a stable order, none the query holds nor a
    function word."""
    return sorted({f for w in words if w not in FUNCTION_WORDS and other_forms(w) and share(w) <= RARE
                   for f in other_forms(w)} - set(words) - FUNCTION_WORDS)


RARE = 0.02  # a query word held by at most this share of the passages (0.01: 1,341 of 1,664 chat questions, 0.02: 1,342)
FORMS_WEIGHT = 0.5  # a passage's BM25 over the other forms of the query's words, against its BM25 over the words (no
# RARE: 0.5 / 0.25 / 1.0: 1,339 / 1,340 / 1,331; with RARE 0.01, 0.25: 1,340)


def with_forms(rank: Callable[[str, int], list[Any]], share: Callable[[str], float], expression: str,
               words: set[str] | frozenset[str], limit: int) -> list[Any]:
    """The passages `rank` finds for `expression` (best first, each with its BM25 `score`, lower better, and
    `rowid`), each passage's score plus FORMS_WEIGHT of its BM25 over the other forms of the query's rare
    words (`query_forms`), and the passages only those find among them: the best `limit`."""
    hits = rank(expression, limit)
    forms = query_forms(words, share)
    if not forms:
        return hits
    scores = {p.rowid: (float(p.score), p) for p in hits}
    for p in rank(" OR ".join(f'"{f}"' for f in forms), limit):
        had, q = scores.get(p.rowid, (0.0, p))
        scores[p.rowid] = (had + FORMS_WEIGHT * float(p.score), q)
    ranked = sorted(scores.values(), key=lambda sp: (sp[0], sp[1].path, sp[1].start))[:limit]
    return [replace(p, score=score) for score, p in ranked]
