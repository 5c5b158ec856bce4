# size: one self-contained script (labelled sample, questions, the BM25 anchor and the report), run without the test suite.
"""Benchmark: what the built-in compiler understands, measured on the compiled wiki, and whether a
2 KB context packet holds the answer, against plain BM25 over the raw source paragraphs (the anchor).

    python benchmarks/quality.py                     # the handbook and the RFCs under ../shared/corpus
    python benchmarks/quality.py --corpus /path/to/shared/corpus
    python benchmarks/quality.py --only handbook     # or: --only rfcs, endoflife, notes, conversations
    python benchmarks/quality.py --misses 40         # list more misses (default 20)

Each corpus is copied into a fresh knowledge base in a temporary workspace and state directory and
compiled through the normal code path (a manual compile request, the built-in worker, promotion, the
search index), so what is measured is what a person gets.

Labelled samples, written by reading the files, measured the same way on both corpora: the handbook
(../shared/corpus/handbook/engineering, labels in tests/data/handbook_labels.json) and the RFCs
(../shared/corpus/rust-rfcs/text, labels in tests/data/rfc_labels.json):
  entity precision  of the labelled candidates that have an entity page (wiki/entities/*.md title or
                    alias, casefolded, backticks ignored), the share labelled named things  (goal >= 95 %)
  entity recall     of the labelled named things, the share that have an entity page      (goal >= 80 %)
  definitions found of the labelled definitional sentences, the share where the term's page (concept
                    or entity, by title or alias) has a claim citing that file with a line range that
                    includes the labelled line                                           (goal >= 80 %)
Both corpora:
  page counts, the share of stub pages among concept and entity pages (fewer than two cited
  statements, "Mentioned as" lines not counted, or an empty first section; goal <= 20 %), and entity
  titles that are a common word (wordfreq zipf >= 4.5, one word) or "<common word> team" (goal: none).
Questions:
  RFCs: the feature name (from the file name) -> a distinctive 8-word span of the first sentence of the
  RFC's Summary section (derived mechanically); handbook: the hand-written questions in the labels
  file. For each, a 2,048-byte context packet from the same service `kctui context` uses, as text and
  as JSON; a hit is the answer span inside it (casefolded, whitespace collapsed, Markdown emphasis,
  link targets and escapes removed on both sides; for JSON, over the packet's string values). The anchor
  is plain BM25 (k1 1.2, b 0.75, the same tokenizer and function words as the search) over the raw source
  paragraphs, packing the best paragraphs, each with a `path:Lstart-Lend` line, into the same budget.
  Goal: kctui ahead of BM25 on every corpus.
endoflife (../shared/corpus/endoflife/2026-08-22): every fourth product, "<product> <cycle> end of life" ->
  the end-of-life date of its second dated release cycle (derived mechanically from the front matter).
Notes (the writers' notes under benchmarks/data/notes, issue 31): see benchmarks/notes_eval.py; their
context packets (the questions a teammate would ask, questions.jsonl, and each labelled fact as a
cloze): benchmarks/notes_context.py.
Conversations (the chats and their questions under benchmarks/data/conversations, issue 30): see
benchmarks/conversations_eval.py.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
LABELS = ROOT / "tests" / "data" / "handbook_labels.json"
RFC_LABELS = ROOT / "tests" / "data" / "rfc_labels.json"
BUDGET = 2048
ZIPF_COMMON = 4.5
SPAN_WORDS = 8

sys.path.insert(0, str(ROOT))


def progress(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# -- compiling a corpus through the normal code path -------------------------------------------------


def scratch_service(tmp: Path):  # noqa: ANN201 - a ServiceContext, imported once the state folders are set
    """(service context, workspace) over state, config and workspace folders of their own under `tmp` (a
    benchmark's temporary folder), so a run touches no user state."""
    os.environ["KCTUI_STATE_DIR"] = str(tmp / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(tmp / "config")
    from kctui.services.context import ServiceContext

    workspace = (tmp / "ws").resolve()
    workspace.mkdir()
    return ServiceContext.open(), workspace


def compile_corpus(svc, workspace: Path, name: str, source: Path):
    from kctui.services import bases, jobs
    from kctui.services.local_transport import LocalTransport
    from kctui.services.worker import run_worker

    t0 = time.perf_counter()
    _, base = bases.create_base(svc, workspace, name, from_paths=[str(source)])
    jobs.request_compile(svc, workspace, base.id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    if [o.result for o in outcomes] != ["succeeded"]:
        sys.exit(f"compiling {name} failed: {outcomes}")
    progress(f"{name}: compiled {sum(1 for p in source.rglob('*') if p.is_file())} files in "
             f"{time.perf_counter() - t0:.1f} s")
    return base


# -- reading the compiled wiki ------------------------------------------------------------------------

_CITE = re.compile(r"\^\[([^\]:]+):L(\d+)(?:-L(\d+))?\]")


def key(name: str) -> str:
    return " ".join(name.replace("`", "").split()).casefold()


def read_pages(wiki: Path) -> list[dict]:
    """Concept and entity pages: kind, title, names (title + aliases, as keys), citations of their
    statements, and whether the page is a stub."""
    from kctui.core.frontmatter import FrontmatterError, parse_document

    pages = []
    for kind in ("entities", "concepts"):
        for path in sorted((wiki / kind).glob("*.md")):
            try:
                data, body, _ = parse_document(path.read_text(encoding="utf-8"))
            except FrontmatterError:
                continue
            data = data or {}
            title = str(data.get("title") or path.stem)
            aliases = [str(a) for a in data.get("aliases") or [] if isinstance(a, (str, int, float))]
            cites: list[tuple[str, int, int]] = []
            statements = 0
            first_section: list[str] | None = None
            section_no = 0
            for line in body.split("\n"):
                if line.startswith("## "):
                    section_no += 1
                    if section_no == 1:
                        first_section = []
                    continue
                if section_no == 1 and first_section is not None and line.strip():
                    first_section.append(line.strip())
                found = _CITE.findall(line)
                if not found or line.lstrip("* ").startswith("Mentioned as"):
                    continue
                statements += 1
                cites += [(p, int(a), int(b or a)) for p, a, b in found]
            empty_first = first_section is None or not first_section or first_section == ["_None yet._"]
            pages.append({"kind": kind, "path": f"{kind}/{path.name}", "title": title,
                          "names": {key(title)} | {key(a) for a in aliases}, "cites": cites,
                          "statements": statements, "stub": statements < 2 or empty_first})
    return pages


def one_word(word: str) -> bool:
    """Is `word` one word as wordfreq reads it (its tokenizer keeps it whole)?"""
    try:
        from wordfreq import tokenize
    except ImportError:  # pragma: no cover
        return "-" not in word.strip("-")
    return tokenize(word.lower(), "en") == [word.lower()]


def page_report(name: str, pages: list[dict], misses: int) -> dict:
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - the check needs the word-frequency library
        print("  (wordfreq is not installed: `pip install wordfreq` to check for common-word titles)")

        def zipf_frequency(word: str, lang: str) -> float:
            return 0.0

    entities = [p for p in pages if p["kind"] == "entities"]
    concepts = [p for p in pages if p["kind"] == "concepts"]
    stubs = [p for p in pages if p["stub"]]
    share = len(stubs) / len(pages) if pages else 0.0

    def common(title: str) -> bool:
        words = title.replace("`", "").split()
        if len(words) == 1:  # a hyphenated compound ("Drop-Check") or "C++" is not one common word:
            # wordfreq scores it from what its tokenizer keeps ("drop", "check"; "c"), which says nothing
            # about the name
            return one_word(words[0]) and zipf_frequency(words[0].lower(), "en") >= ZIPF_COMMON
        if len(words) == 2 and words[1].lower() == "team":
            return zipf_frequency(words[0].lower(), "en") >= ZIPF_COMMON
        return False

    junk = sorted(p["title"] for p in entities if common(p["title"]))
    print(f"\n== {name}: pages")
    print(f"  entity pages {len(entities)}, concept pages {len(concepts)}")
    print(f"  stub pages (< 2 cited statements or an empty first section): {len(stubs)} of {len(pages)} "
          f"= {share:.0%}  (goal <= 20 %: {'yes' if share <= 0.20 else 'NO'})")
    print(f"  entity titles that are a common word or '<common word> team': {len(junk)}  "
          f"(goal 0: {'yes' if not junk else 'NO'})" + (f"\n    {', '.join(junk[:misses])}" if junk else ""))
    return {"entities": len(entities), "concepts": len(concepts), "stub_share": share, "common_titles": len(junk)}


# -- a labelled sample (the handbook, the RFCs) -----------------------------------------------------


def label_report(name: str, pages: list[dict], labels: dict, misses: int) -> dict:
    """Entity precision and recall over the labelled candidates and the share of labelled definitions
    found on the term's page, with the misses; the same measure for every corpus."""
    entity_names = set().union(*(p["names"] for p in pages if p["kind"] == "entities")) if pages else set()
    cands = labels["entities"]
    with_page = [c for c in cands if key(c["name"]) in entity_names]
    named = [c for c in cands if c["is_named_thing"]]
    true_pos = [c for c in with_page if c["is_named_thing"]]
    precision = len(true_pos) / len(with_page) if with_page else 0.0
    recall = len(true_pos) / len(named) if named else 0.0
    by_name: dict[str, list[dict]] = {}
    for p in pages:
        for n in p["names"]:
            by_name.setdefault(n, []).append(p)
    found, missed = [], []
    for d in labels["definitions"]:
        ok = any(path == d["file"] and a <= d["line"] <= b
                 for p in by_name.get(key(d["term"]), []) for path, a, b in p["cites"])
        (found if ok else missed).append(d)
    share = len(found) / len(labels["definitions"])
    print(f"\n== {name}: the labelled sample "
          f"({len(cands)} entity candidates, {len(named)} named things, {len(labels['definitions'])} definitions)")
    print(f"  entity precision  {precision:6.1%}  ({len(true_pos)} of {len(with_page)} candidates with a page)  goal >= 95 %: "
          f"{'yes' if precision >= 0.95 else 'NO'}")
    print(f"  entity recall     {recall:6.1%}  ({len(true_pos)} of {len(named)} named things)  goal >= 80 %: "
          f"{'yes' if recall >= 0.80 else 'NO'}")
    print(f"  definitions found {share:6.1%}  ({len(found)} of {len(labels['definitions'])})  goal >= 80 %: "
          f"{'yes' if share >= 0.80 else 'NO'}")
    wrong = [c for c in with_page if not c["is_named_thing"]]
    lost = [c for c in named if key(c["name"]) not in entity_names]
    if wrong:
        print(f"  pages for things that are not names ({len(wrong)}): " + ", ".join(c["name"] for c in wrong[:misses]))
    if lost:
        print(f"  named things without an entity page ({len(lost)}): "
              + ", ".join(f"{c['name']} ({c.get('type', '?')}, {c['mentions']}x)" for c in lost[:misses]))
    if missed:
        print(f"  definitions not found ({len(missed)}):")
        for d in missed[:misses]:
            has = "page exists, no claim cites the line" if key(d["term"]) in by_name else "no page"
            print(f"    {d['term']!r} {d['file']}:L{d['line']} — {has}")
    return {"precision": precision, "recall": recall, "definitions": share}


# -- questions ------------------------------------------------------------------------------------------

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_WIKI = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")


def norm(text: str) -> str:
    text = _WIKI.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = re.sub(r"\\([^\w\s])", r"\1", text)
    text = re.sub(r"[*_`]", "", text)
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'")
    return " ".join(text.split()).casefold()


def strings_of(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings_of(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings_of(v)]
    return []


def summary_sentence(text: str) -> str | None:
    """The first sentence of an RFC's Summary section (the paragraph after a `Summary` heading)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^#+\s*summary\s*$", line.strip(), re.I):
            para: list[str] = []
            for nxt in lines[i + 1:]:
                if nxt.startswith("#"):
                    break
                if not nxt.strip():
                    if para:
                        break
                    continue
                para.append(nxt.strip())
            if not para:
                return None
            joined = " ".join(para)
            return re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", joined)[0]
    return None


def rfc_questions(folder: Path) -> list[dict]:
    """(feature name from the file name, a distinctive span of the summary's first sentence): the
    SPAN_WORDS-word window whose words are rarest across the RFCs (highest summed idf)."""
    from kctui.search.query import tokens

    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}
    df = Counter(t for t in texts.values() for t in set(tokens(t)))
    n = len(texts)
    out = []
    for name, text in texts.items():
        sentence = summary_sentence(text)
        if not sentence:
            continue
        words = norm(sentence).split()
        if len(words) < 5:
            continue
        width = min(SPAN_WORDS, len(words))

        def weight(ws: list[str]) -> float:
            return sum(math.log(n / (1 + df.get(t, 0))) for w in ws for t in tokens(w))

        best = max(range(len(words) - width + 1), key=lambda i: (weight(words[i:i + width]), -i))
        feature = re.sub(r"^\d+-", "", name[:-3]).replace("-", " ").replace("_", " ")
        out.append({"question": feature, "answer": " ".join(words[best:best + width]), "file": name})
    return out


def eol_questions(folder: Path, every: int = 4) -> list[dict]:
    """endoflife: for every `every`-th product, "<product> <cycle> end of life" -> the end-of-life date its
    front matter gives the second release cycle that has one (derived mechanically)."""
    import datetime

    from kctui.core.frontmatter import FrontmatterError, parse_document

    out = []
    for path in sorted(folder.rglob("*.md"))[::every]:
        try:
            data, _, _ = parse_document(path.read_text(encoding="utf-8"))
        except FrontmatterError:
            continue
        dated = [r for r in (data or {}).get("releases") or []
                 if isinstance(r, dict) and isinstance(r.get("eol"), datetime.date) and r.get("releaseCycle") is not None]
        if len(dated) >= 2:
            r = dated[1]
            out.append({"question": f"{data.get('title') or path.stem} {r['releaseCycle']} end of life",
                        "answer": r["eol"].isoformat(), "file": path.relative_to(folder).as_posix()})
    return out


def _turns(rel: str, lines: list[str], start: int, end: int) -> list[tuple[str, int, int, str]]:
    """Lines start..end-1 (one blank-line paragraph) as the anchor's paragraphs: the paragraph, or, when two
    or more of its lines open a conversation's turn (a chat exported as one line a message, no blank line
    between: kctui.search.turn_head), each turn with the lines that continue it, as kctui's passages cut it."""
    from kctui.search.turn_head import is_turn_line

    heads = [i for i in range(start, end) if is_turn_line(lines[i])]
    if len(heads) < 2:
        return [(rel, start + 1, end, "\n".join(lines[start:end]))]
    cuts = sorted({start, *heads})
    return [(rel, a + 1, b, "\n".join(lines[a:b])) for a, b in zip(cuts, [*cuts[1:], end])]


class BM25:
    """Plain BM25 over the raw source paragraphs (blank-line separated; a chat export's turns), the anchor."""

    def __init__(self, folder: Path, k1: float = 1.2, b: float = 0.75) -> None:
        from kctui.search.query import tokens

        self.tokens = tokens
        self.k1, self.b = k1, b
        self.paras: list[tuple[str, int, int, str]] = []  # (path, start, end, text)
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            rel = path.relative_to(folder).as_posix()
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            start = None
            for i, line in enumerate(lines + [""]):
                if line.strip() and start is None:
                    start = i
                elif not line.strip() and start is not None:
                    self.paras += _turns(rel, lines, start, i)
                    start = None
        self.tf = [Counter(tokens(p[3])) for p in self.paras]
        self.len = [sum(c.values()) for c in self.tf]
        self.avg = sum(self.len) / max(1, len(self.len))
        self.df = Counter(t for c in self.tf for t in c)
        self.postings: dict[str, list[int]] = {}
        for i, c in enumerate(self.tf):
            for t in c:
                self.postings.setdefault(t, []).append(i)

    def packet(self, query: str, budget: int) -> str:
        from kctui.search.query import FUNCTION_WORDS

        terms = [t for t in self.tokens(query) if t not in FUNCTION_WORDS] or self.tokens(query)
        n = len(self.paras)
        scores: Counter = Counter()
        for t in set(terms):
            idf = math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5))
            for i in self.postings.get(t, []):
                f = self.tf[i][t]
                scores[i] += idf * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
        out, size = [], 0
        for i, _s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
            path, a, b, text = self.paras[i]
            block = f"{path}:L{a}-L{b}\n{text}\n\n"
            room = budget - size
            need = len(block.encode("utf-8"))
            if need <= room:
                out.append(block)
                size += need
            elif not out:  # the best paragraph alone is larger than the budget: its head
                out.append(block.encode("utf-8")[:room].decode("utf-8", "ignore"))
                break
            if budget - size < 64:
                break
        return "".join(out)


def ask(svc, base, questions: list[dict], anchor: BM25, name: str, misses: int) -> dict:
    from kctui.services import search as svc_search
    from kctui.services.errors import InvalidInput

    hits = {"text": 0, "json": 0, "bm25": 0}
    lost: list[tuple[str, str, str]] = []
    t0 = time.perf_counter()
    for n, q in enumerate(questions, 1):
        answer = norm(q["answer"])
        try:
            text = svc_search.context(svc, base.workspace, base.id, q["question"], budget=BUDGET, fmt="text")
            packet = svc_search.context(svc, base.workspace, base.id, q["question"], budget=BUDGET, fmt="json")
        except InvalidInput as exc:
            print(f"  question {q['question']!r} refused: {exc}")
            continue
        assert len(text.encode("utf-8")) <= BUDGET and len(packet.encode("utf-8")) <= BUDGET
        got_text = answer in norm(text)
        got_json = answer in norm("\n".join(strings_of(json.loads(packet))))
        got_bm25 = answer in norm(anchor.packet(q["question"], BUDGET))
        hits["text"] += got_text
        hits["json"] += got_json
        hits["bm25"] += got_bm25
        if not (got_text and got_json):
            lost.append((q["question"], q["answer"], q["file"]))
        if n % 50 == 0:
            progress(f"{name}: {n} of {len(questions)} questions asked")
    total = len(questions)
    progress(f"{name}: {total} questions in {time.perf_counter() - t0:.1f} s")
    print(f"\n== {name}: {total} questions, answer inside a {BUDGET:,}-byte packet")
    print(f"  {'':22}{'hits':>6}{'rate':>8}")
    for label, k in (("kctui context (text)", "text"), ("kctui context (JSON)", "json"), ("BM25 paragraphs", "bm25")):
        print(f"  {label:22}{hits[k]:6d}{hits[k] / total:8.0%}")
    ahead = hits["text"] > hits["bm25"] and hits["json"] > hits["bm25"]
    print(f"  kctui ahead of BM25 (text and JSON): {'yes' if ahead else 'NO'}")
    if lost:
        print(f"  answers a kctui packet missed ({len(lost)}):")
        for question, answer, path in lost[:misses]:
            print(f"    {question!r} -> {answer!r} ({path})")
    return {k: v / total for k, v in hits.items()}


# -- main -------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--only", choices=("handbook", "rfcs", "endoflife", "notes", "conversations"),
                        help="measure one corpus only")
    parser.add_argument("--misses", type=int, default=20, help="how many misses to list (default 20)")
    args = parser.parse_args()
    handbook = args.corpus / "handbook" / "engineering"
    rfcs = args.corpus / "rust-rfcs" / "text"
    wanted = [("handbook", handbook), ("rfcs", rfcs), ("endoflife", args.corpus / "endoflife" / "2026-08-22")]
    wanted = [w for w in wanted if args.only in (None, w[0])]
    for _n, folder in wanted:
        if not folder.is_dir():
            sys.exit(f"corpus folder not found: {folder}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    rfc_labels = json.loads(RFC_LABELS.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="kctui-quality-") as tmp:
        svc, workspace = scratch_service(Path(tmp))
        from kctui import paths

        summary = {}
        notes = conversations = None
        try:
            for name, folder in wanted:
                base = compile_corpus(svc, workspace, name, folder)
                pages = read_pages(paths.wiki_path(workspace, base.id))
                result = {"pages": page_report(name, pages, args.misses)}
                if name == "handbook":
                    result["labels"] = label_report(name, pages, labels, args.misses)
                    questions = labels["questions"]
                elif name == "endoflife":
                    questions = eol_questions(folder)
                else:
                    result["labels"] = label_report(name, pages, rfc_labels, args.misses)
                    questions = rfc_questions(folder)
                progress(f"{name}: indexing {folder} for the BM25 anchor")
                anchor = BM25(folder)
                result["questions"] = ask(svc, base, questions, anchor, name, args.misses)
                summary[name] = result
            if args.only in (None, "notes"):
                from notes_eval import notes_report

                notes = notes_report(svc, workspace, Path(tmp), args.misses)
            if args.only in (None, "conversations"):
                from conversations_eval import evaluate

                conversations = evaluate(svc, workspace, BM25, norm, strings_of, args.misses)
        finally:
            svc.close()
    print("\n== summary")
    for name, r in summary.items():
        q = r["questions"]
        line = f"  {name:9} text {q['text']:.0%}  JSON {q['json']:.0%}  BM25 {q['bm25']:.0%}"
        line += f"  stubs {r['pages']['stub_share']:.0%}  common-word titles {r['pages']['common_titles']}"
        if "labels" in r:
            lab = r["labels"]
            line += f"  precision {lab['precision']:.0%}  recall {lab['recall']:.0%}  definitions {lab['definitions']:.0%}"
        print(line)
    if conversations:
        c = conversations
        print(f"  conversations  evidence: text {c['text']:.0%}  JSON {c['json']:.0%}  BM25 {c['bm25']:.0%}  "
              f"answer: text {c['answer_text']:.0%}  BM25 {c['answer_bm25']:.0%}")
    if notes:
        ctx = notes.pop("context", None)
        cloze = notes.pop("cloze", None)
        wrong = notes.pop("wrong_page", None)
        print("  notes     " + "  ".join(f"{k} {v['share']:.0%} (spread {v['spread']:.0f}p)" for k, v in notes.items()))
        if wrong:
            print(f"  notes     lines on the wrong page {wrong['share']:.1%} ({wrong['lines'][0]} of {wrong['lines'][1]})")
        if ctx:
            print(f"  notes     evidence: text {ctx['text']:.0%}  JSON {ctx['json']:.0%}  BM25 {ctx['bm25']:.0%}"
                  " (the writers' questions)")
        if cloze:
            print(f"  notes     evidence: text {cloze['text']:.0%}  JSON {cloze['json']:.0%}  BM25 {cloze['bm25']:.0%}"
                  " (each fact as a cloze)")


if __name__ == "__main__":
    main()
