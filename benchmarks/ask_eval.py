"""Benchmark: the no-model `kctui ask` on the questions people wrote (the conversations under
benchmarks/data/conversations, the notes under benchmarks/data/notes).

    python benchmarks/ask_eval.py                  # both corpora
    python benchmarks/ask_eval.py --only notes     # or: --only conversations

Each chat and each writer's notes is compiled as a knowledge base of its own through the normal code path
(benchmarks/conversations_eval.py `compile_chat`, benchmarks/quality.py `compile_corpus`), in a temporary
state directory. Every question is answered as `kctui ask` answers it with no model configured: the
extractive answer (kctui.search.answer `extract`) over the question's context packet at `ask`'s default
budget. Per question type and overall:

  evidence  one of the answer's sentences cites or quotes lines that overlap a labelled evidence range
  answer    the short answer, normalised as in quality.py, is inside the answer's sentences

There is no anchor here: the answer is made from the packet, whose own anchor (BM25 over the raw
paragraphs) quality.py measures; this measures how much of what the packet holds the three sentences keep.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def _questions(svc, ws: Path, tmp: Path, only: str | None):  # noqa: ANN001, ANN202
    """(corpus, question, base) for every question of the chosen corpora, each base compiled once."""
    import conversations_eval as ce
    import notes_context
    import notes_eval
    from quality import compile_corpus

    if only in (None, "conversations"):
        for writer, chat, folder, files in ce.chats():
            with contextlib.redirect_stdout(io.StringIO()):
                base, _ = ce.compile_chat(svc, ws, f"{writer}-{chat}", folder, files)
            for q in ce.questions_of(folder):
                if q.get("chat", chat) == chat:
                    yield "conversations", q, base
    if only in (None, "notes"):
        for w in notes_eval.WRITERS:
            folder = notes_eval.NOTES / f"writer-{w}"
            src = tmp / "notes" / folder.name
            src.mkdir(parents=True)
            for note in folder.glob("*.md"):
                shutil.copy2(note, src / note.name)
            with contextlib.redirect_stdout(io.StringIO()):
                base = compile_corpus(svc, ws, f"notes-{folder.name}", src)
            for q in notes_context.written(folder):
                yield "notes", q, base


def _overlaps(source: str, lines: tuple[int, int] | None, evidence: list[dict]) -> bool:
    """Do the lines overlap one labelled evidence range (its lines a range, or a list of lines)?"""
    from conversations_eval import _same_file

    return lines is not None and any(_same_file(source, ev["file"]) and lines[0] <= max(ev["lines"])
                                     and min(ev["lines"]) <= lines[1] for ev in evidence)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=("conversations", "notes"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kctui-ask-eval-") as tmp:
        from quality import norm, scratch_service

        svc, ws = scratch_service(Path(tmp))
        from kctui.search import answer as answers
        from kctui.search import context as packets
        from kctui.services import search as svc_search

        counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
        try:
            for corpus, q, base in _questions(svc, ws, Path(tmp), args.only):
                packet = svc_search.context(svc, base.workspace, base.id, q["question"],
                                            budget=packets.DEFAULT_BUDGET, fmt="json")
                chosen = answers.extract(q["question"], json.loads(packet).get("items") or [])
                hit = any(_overlaps(s.source, s.lines, q["evidence"]) for s in chosen)
                held = norm(q["answer"]) in norm(" ".join(s.text for s in chosen))
                for key in ((corpus, q.get("type", "")), (corpus, "all")):
                    counts[key].update(n=1, evidence=hit, answer=held)
        finally:
            svc.close()
    print(f"\n== the no-model ask: its {answers.EXTRACT_SENTENCES} sentences from a {packets.DEFAULT_BUDGET:,}-byte packet")
    print(f"  {'':32} {'n':>5}  evidence  answer")
    for (corpus, kind), c in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])):
        print(f"  {corpus + ' ' + kind:32} {c['n']:>5}  {c['evidence'] / c['n']:7.1%}  {c['answer'] / c['n']:6.1%}")


if __name__ == "__main__":
    main()
