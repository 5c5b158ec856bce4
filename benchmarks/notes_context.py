"""Context packets on the notes corpus (issue 30), asked of kctui's 2 KB packet (text and JSON) and of the
BM25 anchor over the raw paragraphs at the same budget, in the same run, two ways:

- **Questions** (`writer-*/questions.jsonl`, the measure of issue 30): 30 per writer, written in session 11
  by helpers who read only the notes (never the code), phrased as a teammate would ask ("Who do I talk to
  about the Datadog bill?"), with their evidence lines and a short answer; types `lookup`, `when`,
  `multi` (two or more lines, often in two notes) and `current` (the state after a change).
- **Cloze** (every labelled fact): the label's own statement without its value. Its words are the
  line's words, so BM25 finds the line nearly always; it checks that nothing is lost, not ranking.

A cloze question is derived mechanically from the writer's label, never from the compiled wiki: the fact's
`statement` with its `value` taken out (the cloze a person would ask: "payout-gateway builds on" for
"payout-gateway builds on Go 1.22"); a fact whose value is the whole statement is skipped, and a fact
stated twice on one line is asked once. A hit on evidence: the packet cites or quotes the fact's line
(conversations_eval.covers); on the answer: the value is inside the packet (quality.norm on both sides).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from conversations_eval import BUDGET, ask_one


def questions(labels: dict) -> list[dict]:
    out: list[dict] = []
    seen: set[tuple[str, int, str]] = set()
    for note in labels["notes"]:
        for thing in note.get("things", []):
            for fact in thing.get("facts", []):
                value, statement = str(fact["value"]), str(fact["statement"])
                cloze = " ".join(re.sub(re.escape(value), " ", statement, flags=re.I).split())
                key = (note["file"], int(fact["line"]), value.casefold())
                if len(cloze.split()) < 2 or key in seen:
                    continue
                seen.add(key)
                out.append({"question": cloze, "answer": value,
                            "evidence": [{"file": note["file"], "lines": [int(fact["line"])] * 2}]})
    return out


def written(folder: Path) -> list[dict]:
    """The writer's own questions (`questions.jsonl`), none when the folder has no such file."""
    path = folder / "questions.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def ask(svc, base, source: Path, qs: list[dict], bm25_class, norm, strings_of) -> dict:  # noqa: ANN001
    """The questions `qs` against the compiled base and the anchor over `source` (the notes as
    compiled): hits per measure, per question type, and the number of questions."""
    anchor = bm25_class(source)
    counted = ("ev_text", "ev_json", "ev_bm25", "ans_text", "ans_json", "ans_bm25", "empty")
    hits: dict = dict.fromkeys(counted, 0)
    hits["types"] = {}
    for q in qs:
        row = ask_one(svc, base, q, anchor, norm, strings_of)
        for k in counted:
            hits[k] += row[k]
        kind = hits["types"].setdefault(q.get("type", "cloze"), dict.fromkeys((*counted, "n"), 0))
        kind["n"] += 1
        for k in counted:
            kind[k] += row[k]
        if not row["ev_text"]:
            hits.setdefault("lost", []).append(f"{q.get('id', '')} {q['evidence'][0]['file']}:L{q['evidence'][0]['lines'][0]} "
                                               f"{q['question']!r} -> {q['answer']!r}"
                                               f"{' (BM25 holds it)' if row['ev_bm25'] else ''}")
    hits["n"] = len(qs)
    return hits


def report(per_writer: dict[str, dict], misses: int = 20, title: str = "") -> dict:
    keys = ("ev_text", "ev_json", "ev_bm25", "ans_text", "ans_json", "ans_bm25")
    print(f"\n== notes: {title}, inside a {BUDGET:,}-byte packet")
    print(f"  {'':12}{'n':>5}  {'evidence: text':>14}{'JSON':>7}{'BM25':>7}   {'answer: text':>12}{'JSON':>7}{'BM25':>7}")
    total = {k: sum(h[k] for h in per_writer.values()) for k in (*keys, "n", "empty")}
    types: dict[str, dict] = {}
    for h in per_writer.values():
        for kind, row in h.get("types", {}).items():
            into = types.setdefault(kind, dict.fromkeys((*keys, "n", "empty"), 0))
            for k in into:
                into[k] += row[k]
    rows = [*per_writer.items()] + (sorted(types.items()) if len(types) > 1 else []) + [("all", total)]
    for label, h in rows:
        n = max(1, h["n"])
        print(f"  {label:12}{h['n']:5d}  " + "".join(f"{h[k] / n:{w}.1%}" for k, w in zip(keys, (14, 7, 7, 15, 7, 7))))
    n = max(1, total["n"])
    ev, bm = total["ev_text"] / n, total["ev_bm25"] / n
    print(f"  kctui ≥ BM25 + 10 points on evidence: {'yes' if ev >= bm + 0.10 else 'NO'} ({ev - bm:+.1%}); "
          f"kctui packets empty where BM25's is not: {total['empty']}")
    lost = [(w, miss) for w, h in per_writer.items() for miss in h.get("lost", [])]
    if lost:
        print(f"  questions whose lines a kctui text packet missed ({len(lost)}), the first {min(misses, len(lost))}:")
        for w, miss in lost[:misses]:
            print(f"    [{w}] {miss}")
    return {"text": ev, "json": total["ev_json"] / n, "bm25": bm}
