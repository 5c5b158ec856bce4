"""Benchmark (issue 31): an evaluation corpus written by someone else. Six writers' notes, each
compiled as its own knowledge base, measured on the compiled wiki against the writer's labels.

    python benchmarks/quality.py --only notes        # this report alone
    python benchmarks/quality.py --only notes --misses 40

The corpus is benchmarks/data/notes/writer-{a..x}/ (e and f, a hospital's IT and a brewery's, were
written in session 10, g and h, a newspaper's digital team and a water utility's IT/OT team, in session
11, i and j, a logistics company's platform team and a game studio's live-ops team, in session 12, k
and l, a regional airline's operations IT and a university library's systems team, in session 13,
m to r in sessions 14 and 15, s, t and u, an architecture firm's IT and BIM team, an open-source
database driver's maintainers and a school district's IT team, in session 16, v, w and x, a fitness app's mobile team, a hotel
group's central IT team and a visual effects studio's pipeline team, in session 17, each kept out of its session's development, then added): Markdown notes and a labels.json that lists,
per note, the named `things` (name, aliases, kind, and `facts`: value, statement, line), the
`decisions` (statement, chosen, alternatives, line) and the `actions` (statement, owner, due, line).
Each writer's .md files (not labels.json) are copied to a temporary folder and compiled through the
normal code path (quality.compile_corpus), so sources/ holds the notes by file name and citations on
the pages read `^[note.md:L3-L5]`.

Reading the wiki: a page is any wiki/**/*.md except archived ones; an entity page is one under
wiki/entities/. A page's names are its title and aliases, casefolded, whitespace collapsed, backticks
ignored (quality.key). A thing's pages are the entity pages with one of its names, and the source page of a
note whose title is one of them (a writer who labels "Postmortem: paywall blocked logged-in
subscribers" as a thing labels the note itself). A statement is a body line that contains a citation, except the
"Mentioned as ..." lines (they record where a name appears, they are not claims); its citations are
(path, start line, end line), its text is the line without the citations. A citation covers a labelled
line when its path is the note's file and start <= line <= end. A thing is identified by its
name/aliases across the notes of one writer: labelled things that share a name or an alias are one
thing, with the facts of all of them.

Measures, per writer and overall (counts pooled over the writers):
  things with cited facts  of the labelled things that have at least one fact, the share that have an
                           entity page on which at least one claim cites that note's file with a line
                           range including one of the thing's fact lines               (goal >= 90 %)
  facts on subject's page  of all labelled facts, the share where the subject's page has a cited
                           statement whose citation covers the fact's line in that file and whose text
                           contains the fact's value (both casefolded, whitespace collapsed; on the
                           page side Markdown emphasis, link syntax and escapes are read as the text
                           they show, as quality.norm does)                           (goal >= 85 %)
  decisions and actions    of the labelled decisions and action items, the share where some page (any
                           class: the source page of that note counts) has a cited statement whose
                           citation covers the labelled line                          (goal >= 95 %)
  entity precision         of the entity pages of the compiled wiki, the share whose title or an alias
                           matches a labelled thing's name/alias of that writer's notes; the titles
                           that match nothing are listed                               (goal >= 97 %)
  spread                   for each measure, the highest minus the lowest writer, in percentage
                           points                                                      (goal <= 10)
  lines on the wrong page  of the cited lines on a labelled thing's entity page, the share that cite a
                           line labelled as another thing's fact, none of the page's thing's, and
                           name neither (benchmarks/notes_trust.py)               (lower is better)
The worst misses of each measure follow (up to --misses): things with the most facts first, facts of
the subjects that miss the most, decisions and actions in file order, entity pages with the most
statements first.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import notes_context
import notes_items
from notes_trust import wrong_page
from quality import BM25, compile_corpus, key, norm, progress, strings_of

NOTES = Path(__file__).resolve().parent / "data" / "notes"
WRITERS = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u",
           "v", "w", "x", "y", "z", "aa", "ab", "ac", "ad", "ae", "af", "ag", "ah",
           "ai", "aj", "ak", "al", "am", "an", "ao", "ap", "aq", "ar", "as", "at", "au", "av", "aw", "ax", "ay", "az", "ba", "bb", "bc", "bd", "be", "bf", "bg", "bh", "bi", "bj", "bk", "bl", "bm", "bn", "bo")
# e, f: written in session 10, g, h in 11, i, j in 12, k, l in 13, m, n, o in 14, p, q, r in 15, s, t, u in 16, v, w, x in 17,
# y, z, aa in 18, ab, ac, ad in 19, ae, af, ag, ah in 20, ai, aj, ak, al in 21, am, an, ao, ap in 22, aq, ar, as, at in 23, au, av, aw, ax in 24, ay, az in 25, ba, bb in 26, bc, bd in 27, be, bf in 28, bg, bh in 29, bi, bj in 30, bk, bl in 31, bm, bn, bo in 32, each held out
# of its development (p, q, r wrote question evidence as lists of lines: each run of consecutive lines is a range)
MEASURES = (  # (key, label, goal as a share)
    ("things", "things with cited facts", 0.90),
    ("facts", "facts on subject's page", 0.85),
    ("items", "decisions and actions", 0.95),
    ("precision", "entity precision", 0.97),
)
SPREAD_GOAL = 10.0  # percentage points

_CITE = re.compile(r"\^\[((?:\\.|[^\]\\])+):L(\d+)(?:-L(\d+))?\]")
_CITE_ANY = re.compile(r"\s*\^\[(?:\\.|[^\]\\])*\]")
_ESCAPED = re.compile(r"\\(.)")


# -- the compiled wiki ------------------------------------------------------------------------------


def read_wiki(wiki: Path) -> list[dict]:
    """Every page that is not archived: kind (its folder), title, names, and its statements, each
    {"text": normalised text without the citations, "cites": [(path, start, end)]}."""
    from kctui.core.frontmatter import FrontmatterError, parse_document

    pages = []
    for path in sorted(wiki.rglob("*.md")):
        try:
            data, body, _ = parse_document(path.read_text(encoding="utf-8"))
        except (FrontmatterError, UnicodeDecodeError):
            continue
        data = data or {}
        if data.get("compile_status") == "archived":
            continue
        title = str(data.get("title") or path.stem)
        aliases = [str(a) for a in data.get("aliases") or [] if isinstance(a, (str, int, float))]
        statements = []
        for line in body.split("\n"):
            found = _CITE.findall(line)
            if not found or line.lstrip("* ").startswith("Mentioned as"):
                continue
            cites = [(_ESCAPED.sub(r"\1", p), int(a), int(b or a)) for p, a, b in found]
            statements.append({"text": norm(_CITE_ANY.sub("", line)), "cites": cites, "line": line.strip()})
        rel = path.relative_to(wiki)
        pages.append({"kind": rel.parts[0] if len(rel.parts) > 1 else "", "path": rel.as_posix(),
                      "title": title, "names": {key(title)} | {key(a) for a in aliases},
                      "statements": statements})
    return pages


def covers(statement: dict, file: str, line: int) -> bool:
    return any(p == file and a <= line <= b for p, a, b in statement["cites"])


# -- the labels -------------------------------------------------------------------------------------


def things_of(notes: list[dict]) -> list[dict]:
    """The labelled things of one writer, merged by name/alias: {"name", "names", "facts": [{file,
    line, value, statement}]}, in the order first seen."""
    things: list[dict] = []
    for note in notes:
        for t in note["things"]:
            names = {key(t["name"])} | {key(a) for a in t.get("aliases") or []}
            facts = [{"file": note["file"], **f} for f in t.get("facts") or []]
            same = [g for g in things if g["names"] & names]
            if not same:
                things.append({"name": t["name"], "names": names, "facts": facts})
                continue
            first = same[0]
            first["names"] |= names
            first["facts"] += facts
            for g in same[1:]:
                first["names"] |= g["names"]
                first["facts"] += g["facts"]
                things.remove(g)
    return things


# -- one writer -------------------------------------------------------------------------------------


def measure(labels: dict, pages: list[dict]) -> dict:
    """The four measures of one writer as (hits, total) and their misses."""
    entities = [p for p in pages if p["kind"] == "entities"]
    notes = [p for p in pages if p["kind"] == "sources"]
    things = things_of(labels["notes"])
    out: dict = {}

    def pages_of(thing: dict) -> list[dict]:  # (a note labelled as a thing by its title: its source page)
        return [p for p in entities + notes if p["names"] & thing["names"]]

    # named things with a page citing their stated facts
    with_facts = [t for t in things if t["facts"]]
    hits, misses = 0, []
    for t in with_facts:
        own = pages_of(t)
        ok = any(covers(s, f["file"], f["line"]) for p in own for s in p["statements"] for f in t["facts"])
        hits += ok
        if not ok:
            why = (f"page {', '.join(p['title'] for p in own)}: no claim cites a fact line" if own
                   else "no entity page")
            first = t["facts"][0]
            misses.append((len(t["facts"]), f"{t['name']} ({len(t['facts'])} facts, e.g. "
                           f"{first['file']}:L{first['line']}) — {why}"))
    out["things"] = (hits, len(with_facts), misses)

    # facts on their subject's page
    hits, misses, lost_by_thing = 0, [], {}
    for t in with_facts:
        own = pages_of(t)
        for f in t["facts"]:
            cited = [s for p in own for s in p["statements"] if covers(s, f["file"], f["line"])]
            ok = any(norm(f["value"]) in s["text"] for s in cited)
            hits += ok
            if ok:
                continue
            lost_by_thing[t["name"]] = lost_by_thing.get(t["name"], 0) + 1
            why = ("no entity page" if not own else "no claim on its page cites the line" if not cited
                   else f"cited, value not in the text: {cited[0]['line'][:120]!r}")
            misses.append((t["name"], f"{t['name']}: {f['value']!r} {f['file']}:L{f['line']} — {why}"))
    total = sum(len(t["facts"]) for t in with_facts)
    misses = [(lost_by_thing[name], text) for name, text in misses]
    out["facts"] = (hits, total, misses)

    # decisions and action items as claims
    statements = [s for p in pages for s in p["statements"]]
    hits, total, misses, kinds = 0, 0, [], {"decision": [0, 0], "action": [0, 0]}
    for note in labels["notes"]:
        for kind, items in (("decision", note.get("decisions") or []), ("action", note.get("actions") or [])):
            for item in items:
                ok = any(covers(s, note["file"], item["line"]) for s in statements)
                hits += ok
                total += 1
                kinds[kind][0] += ok
                kinds[kind][1] += 1
                if not ok:
                    misses.append((0, f"{kind} {note['file']}:L{item['line']}: {item['statement'][:100]!r}"))
    out["items"] = (hits, total, misses)
    out["item_kinds"] = kinds

    # entity precision
    labelled = set().union(*(t["names"] for t in things)) if things else set()
    matched = [p for p in entities if p["names"] & labelled]
    misses = [(len(p["statements"]), f"{p['title']} ({len(p['statements'])} statements)")
              for p in entities if not p["names"] & labelled]
    out["precision"] = (len(matched), len(entities), misses)
    out["unmatched_titles"] = sorted(p["title"] for p in entities if not p["names"] & labelled)
    out["wrong_page"] = wrong_page(things, pages)  # (lower is better: benchmarks/notes_trust.py)
    return out


# -- the report -------------------------------------------------------------------------------------


def share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def cell(hits: int, total: int) -> str:
    s = share(hits, total)
    return f"{'—' if s is None else f'{s:.1%}':>6} {f'{hits}/{total}':>7}"


def notes_report(svc, workspace: Path, tmp: Path, misses: int) -> dict:
    """Compile each writer's notes as its own base in `workspace`, print the report, return the
    overall shares and spreads."""
    from kctui import paths

    results: dict[str, dict] = {}
    asked: dict[str, dict] = {}
    cloze: dict[str, dict] = {}
    typed: dict[str, dict] = {}
    for w in WRITERS:
        folder = NOTES / f"writer-{w}"
        if not folder.is_dir():
            raise SystemExit(f"notes folder not found: {folder}")
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        source = Path(tmp) / "notes-sources" / f"writer-{w}"
        source.mkdir(parents=True)
        for note in sorted(folder.glob("*.md")):
            shutil.copy2(note, source / note.name)
        base = compile_corpus(svc, workspace, f"notes-writer-{w}", source)
        pages = read_wiki(paths.wiki_path(workspace, base.id))
        results[w] = measure(labels, pages)
        typed[w] = notes_items.measure(labels, pages)
        asked[w] = notes_context.ask(svc, base, source, notes_context.written(folder), BM25, norm, strings_of)
        cloze[w] = notes_context.ask(svc, base, source, notes_context.questions(labels), BM25, norm, strings_of)

    print(f"\n== notes: {len(WRITERS)} writers' notes, labels in {NOTES.relative_to(NOTES.parents[2])}/writer-*/labels.json")
    heads = [f"writer-{w}" for w in WRITERS] + ["overall"]
    print(f"  {'':25}" + "".join(f"{h:>16}" for h in heads) + f"{'spread':>8}  goal (overall; spread)")
    summary: dict = {}
    for m, label, goal in MEASURES:
        per = [results[w][m][:2] for w in WRITERS]
        overall = (sum(h for h, _ in per), sum(t for _, t in per))
        shares = [s for s in (share(*p) for p in per) if s is not None]
        spread = (max(shares) - min(shares)) * 100 if shares else 0.0
        total_share = share(*overall)
        ok = total_share is not None and total_share >= goal
        print(f"  {label:25}" + "".join(f"{cell(*p):>16}" for p in per + [overall]) + f"{spread:7.1f}p"
              f"  >= {goal:.0%}: {'yes' if ok else 'NO'}; <= {SPREAD_GOAL:g}p: {'yes' if spread <= SPREAD_GOAL else 'NO'}")
        summary[m] = {"share": total_share or 0.0, "spread": spread}
    per = [results[w]["wrong_page"][:2] for w in WRITERS]
    overall = (sum(h for h, _ in per), sum(t for _, t in per))
    shares = [s for s in (share(*p) for p in per) if s is not None]
    spread = (max(shares) - min(shares)) * 100 if shares else 0.0
    print(f"  {'lines on the wrong page':25}" + "".join(f"{cell(*p):>16}" for p in per + [overall]) + f"{spread:7.1f}p"
          "  (lower is better: cited lines on a labelled thing's page that state another thing's fact)")
    summary["wrong_page"] = {"share": share(*overall) or 0.0, "lines": overall}
    dec = [sum(results[w]["item_kinds"]["decision"][i] for w in WRITERS) for i in (0, 1)]
    act = [sum(results[w]["item_kinds"]["action"][i] for w in WRITERS) for i in (0, 1)]
    print(f"  (decisions {dec[0]} of {dec[1]}, action items {act[0]} of {act[1]})")
    notes_items.report(typed, WRITERS)

    for m, label, _goal in (*MEASURES, ("wrong_page", "lines on the wrong page", None)):
        lost = [(weight, w, text) for w in WRITERS for weight, text in results[w][m][2]]
        if not lost:
            continue
        lost.sort(key=lambda x: -x[0])  # stable: writer and file order within a weight
        print(f"\n  {label}: misses ({len(lost)}, {min(misses, len(lost))} shown)")
        for _weight, w, text in lost[:misses]:
            print(f"    [{w}] {text}")
    print("\n  entity titles that match no labelled thing:")
    for w in WRITERS:
        titles = results[w]["unmatched_titles"]
        print(f"    writer-{w} ({len(titles)}): " + (", ".join(titles) if titles else "none"))
    progress("notes: measured")
    summary["cloze"] = notes_context.report({f"writer-{w}": cloze[w] for w in WRITERS}, misses,
                                            "each labelled fact as a cloze (its statement without its value)")
    summary["context"] = notes_context.report({f"writer-{w}": asked[w] for w in WRITERS}, misses,
                                              "the writers' questions (questions.jsonl), asked as a teammate would")
    return summary
