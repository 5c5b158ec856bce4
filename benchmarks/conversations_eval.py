"""The conversation corpus (benchmarks/data/conversations/writer-*/): multi-session chats written by
helpers who never saw the compiler or the search code, and their questions with the evidence lines
(writer-4 was written in session 10, writer-5 in session 11, writer-6 in session 15, writer-7 in session
16, writer-8 in session 17, writer-9 in session 18, writer-10 in session 19, writer-11 in session 20, writer-12
in session 21, writer-13 in session 22, writer-14 in session 23, writer-15 in session 24, writer-16 in session 25, writer-17 in session 26, writer-18 in session 27, writer-19 in session 28, writer-20 in session 29, writer-21 in session 30, writer-22 in session 31, each kept out of its session's development, then
added).

Each chat (a folder of session notes, or one file of sessions) is compiled as a knowledge base of its
own through the normal code path, then every question of that chat is asked for a 2,048-byte context
packet (text and JSON, the service `kctui context` uses) and of the BM25 anchor over the raw
paragraphs at the same budget (benchmarks/quality.py `BM25`). Per writer, per question type and overall:

  evidence  the packet cites every evidence line range of the question: a citation or an evidence
            item of the packet (`path:La-Lb`, `sources/path lines a-b`) overlaps each labelled range
            (the anchor: a packed paragraph's `path:La-Lb` overlaps it); a range that is one heading
            line (a session's dated heading, labelled where the question asks a date) is also
            covered by a kctui packet that quotes or cites a line of that heading's section, since
            the packet shows each group's section heading (`covers`; added in session 16, when
            writer-7 labelled the headings: before, no kctui packet could cover such a line)
  answer    the short answer, normalised as in quality.py, is inside the packet

Goal (issue 30): kctui ≥ BM25 + 10 points on evidence, and ≥ 80 % on these conversations.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "conversations"
BUDGET = 2048

_CITED = re.compile(r"([^\s\[\]()^`'\"]+?\.(?:md|txt)):L(\d+)(?:-L(\d+))?")  # (a chat exported as .txt too)
_EVIDENCE = re.compile(r"sources/(\S+?\.(?:md|txt)) lines (\d+)-(\d+)")
_GROUP = re.compile(r"^## EVIDENCE (?:sources/)?(\S+)")
_LINE = re.compile(r"^\s*L(\d+)(?:-L(\d+))?: ")
_HEADING = re.compile(r"^(#{1,6})\s+\S")


def chats() -> list[tuple[str, str, Path, list[Path]]]:
    """(writer, chat, writer folder, its files) for every chat of the corpus."""
    out = []
    for writer in sorted(p for p in DATA.glob("writer-*") if p.is_dir()):
        names = sorted({p.stem if p.is_file() else p.name for p in writer.iterdir()
                        if p.name.startswith("chat-") and (p.is_dir() or p.suffix == ".md")})
        for chat in names:
            folder, single = writer / chat, writer / f"{chat}.md"
            files = sorted(folder.rglob("*.md")) if folder.is_dir() else [single]
            out.append((writer.name, chat, writer, files))
    return out


def questions_of(writer: Path) -> list[dict]:
    return [json.loads(line) for line in (writer / "questions.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def ranges_in(packet: str) -> list[tuple[str, int, int]]:
    """Every (path, first, last) line range a packet cites or quotes: citations `path:La-Lb`, and the
    `Lx[-Ly]:` lines under a `## EVIDENCE sources/<path>` group header."""
    out = [(p, int(a), int(b or a)) for p, a, b in _CITED.findall(packet)]
    out += [(p, int(a), int(b)) for p, a, b in _EVIDENCE.findall(packet)]
    group = None
    for line in packet.splitlines():
        head = _GROUP.match(line)
        if head:
            group = head.group(1)
            continue
        if line.startswith("## "):
            group = None
        m = _LINE.match(line)
        if group and m:
            out.append((group, int(m.group(1)), int(m.group(2) or m.group(1))))
    return out


def _same_file(path: str, file: str) -> bool:
    return path == file or path.endswith("/" + file) or file.endswith("/" + path)


def covers(ranges: list[tuple[str, int, int]], evidence: list[dict],
           headings: dict[str, list[tuple[int, int]]] | None = None) -> bool:
    """Each labelled evidence range overlaps a range of the packet on the same file. With `headings` (a
    file's Markdown heading lines, `headings_of`), an evidence range that is one heading line (a chat
    session's dated heading, cited for the date a question asks) is also covered where the packet quotes or
    cites a line of the section that heading opens: kctui's packet shows the section's heading once above
    the items of each group (its date, for a dated session), and a compiled claim carries its session's
    date (the BM25 anchor quotes paragraphs without their headings, and is asked without `headings`)."""
    def one(ev: dict) -> bool:
        a, b = ev["lines"]
        if any(_same_file(path, ev["file"]) and start <= b and a <= end for path, start, end in ranges):
            return True
        section = _section(headings or {}, ev["file"], a) if a == b else None
        return section is not None and any(_same_file(path, ev["file"]) and section[0] < start <= section[1]
                                           for path, start, _end in ranges)
    return all(one(ev) for ev in evidence)


def headings_of(paragraphs: list[tuple[str, int, int, str]]) -> dict[str, list[tuple[int, int]]]:
    """(line, level) of every Markdown heading line of each file, from the anchor's paragraphs (path, first
    line, last line, text), in line order."""
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for path, first, _last, text in paragraphs:
        for i, line in enumerate(text.splitlines()):
            m = _HEADING.match(line)
            if m:
                out[path].append((first + i, len(m.group(1))))
    return out


def _section(headings: dict[str, list[tuple[int, int]]], file: str, line: int) -> tuple[int, int] | None:
    """(heading line, last line) of the section heading `line` of `file` opens (up to the next heading of
    its level or a higher one), or None when that line is not a heading."""
    marks = next((v for path, v in headings.items() if _same_file(path, file)), [])
    level = next((lv for at, lv in marks if at == line), None)
    if level is None:
        return None
    end = next((at - 1 for at, lv in marks if at > line and lv <= level), 10 ** 9)
    return line, end


def compile_chat(svc, workspace: Path, name: str, writer: Path, files: list[Path]):  # noqa: ANN001
    """The chat's files as a knowledge base, their paths under sources/ as under the writer's folder."""
    from kctui import paths
    from kctui.services import bases, jobs
    from kctui.services.local_transport import LocalTransport
    from kctui.services.worker import run_worker

    _, base = bases.create_base(svc, workspace, name)
    sources = paths.kb_path(workspace, base.id) / "sources"
    for f in files:
        dest = sources / f.relative_to(writer)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dest)
    t0 = time.perf_counter()
    jobs.request_compile(svc, workspace, base.id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    if [o.result for o in outcomes] != ["succeeded"]:
        raise SystemExit(f"compiling {name} failed: {outcomes}")
    return base, time.perf_counter() - t0


def evaluate(svc, workspace: Path, bm25_class, norm, strings_of, misses: int = 10) -> dict:  # noqa: ANN001
    """Every chat compiled and asked; prints the report and returns the overall shares."""
    rows: list[dict] = []
    lost: list[tuple[str, str, str]] = []
    for writer_name, chat, writer, files in chats():
        name = f"{writer_name}-{chat}"
        base, seconds = compile_chat(svc, workspace, name, writer, files)
        print(f"  {name}: {len(files)} file(s) compiled in {seconds:.1f} s", flush=True)
        with tempfile.TemporaryDirectory(prefix="kctui-chat-") as tmp:
            anchor_root = Path(tmp)
            for f in files:
                dest = anchor_root / f.relative_to(writer)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, dest)
            anchor = bm25_class(anchor_root)
        for q in questions_of(writer):
            if q["chat"] != chat:
                continue
            row = dict(ask_one(svc, base, q, anchor, norm, strings_of), writer=writer_name, type=q["type"])
            rows.append(row)
            if not row["ev_text"]:
                lost.append((q["id"], q["question"], q["answer"]))
    return report(rows, lost, misses)


def ask_one(svc, base, q: dict, anchor, norm, strings_of) -> dict:  # noqa: ANN001
    """One question (`question`, `answer`, `evidence`) asked of kctui's text and JSON packets and of the
    BM25 anchor at BUDGET bytes: whether each holds every evidence range (`ev_*`) and the answer
    (`ans_*`), and whether kctui's packet is empty where the anchor's is not (`empty`)."""
    from kctui.search.packet_items import full_item, kind_of, read_passage
    from kctui.services import search as svc_search

    text = svc_search.context(svc, base.workspace, base.id, q["question"], budget=BUDGET, fmt="text")
    packet = svc_search.context(svc, base.workspace, base.id, q["question"], budget=BUDGET, fmt="json")
    raw = anchor.packet(q["question"], BUDGET)
    assert len(text.encode()) <= BUDGET and len(packet.encode()) <= BUDGET
    data = json.loads(packet)
    flat_json = "\n".join(strings_of(data))
    evidence = [full_item(i) for i in data["items"] if kind_of(i) == "evidence"]
    json_ranges = ranges_in(flat_json) + [(i["source"], *got[0]) for i in evidence
                                          for p in i.get("passages", []) if (got := read_passage(p))]
    answer = norm(q["answer"])
    headings = headings_of(anchor.paras)
    return {"ev_text": covers(ranges_in(text), q["evidence"], headings),
            "ev_json": covers(json_ranges, q["evidence"], headings),
            "ev_bm25": covers(ranges_in(raw), q["evidence"]),
            "ans_text": answer in norm(text), "ans_json": answer in norm(flat_json), "ans_bm25": answer in norm(raw),
            "empty": not data["items"] and bool(raw.strip())}


def _share(rows: list[dict], key: str) -> float:
    return sum(r[key] for r in rows) / len(rows) if rows else 0.0


def report(rows: list[dict], lost: list[tuple[str, str, str]], misses: int) -> dict:
    print(f"\n== conversations: {len(rows)} questions, evidence and answer inside a {BUDGET:,}-byte packet")
    print(f"  {'':24}{'n':>5}  {'evidence: text':>14}{'JSON':>7}{'BM25':>7}   {'answer: text':>12}{'JSON':>7}{'BM25':>7}")
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[r["writer"]].append(r)
        groups[r["type"]].append(r)
    for label, rs in [*sorted(groups.items()), ("all", rows)]:
        print(f"  {label:24}{len(rs):5d}  {_share(rs, 'ev_text'):14.1%}{_share(rs, 'ev_json'):7.1%}"
              f"{_share(rs, 'ev_bm25'):7.1%}   {_share(rs, 'ans_text'):12.1%}{_share(rs, 'ans_json'):7.1%}"
              f"{_share(rs, 'ans_bm25'):7.1%}")
    ev, bm = _share(rows, "ev_text"), _share(rows, "ev_bm25")
    print(f"  kctui ≥ BM25 + 10 points on evidence: {'yes' if ev >= bm + 0.10 else 'NO'} "
          f"({ev - bm:+.1%}); ≥ 80 %: {'yes' if ev >= 0.80 else 'NO'}")
    print(f"  kctui packets with no compiled item where BM25's is not empty: {sum(r['empty'] for r in rows)}")
    if lost:
        print(f"  questions whose evidence a kctui packet missed ({len(lost)}), the first {misses}:")
        for qid, question, answer in lost[:misses]:
            print(f"    {qid} {question!r} -> {answer!r}")
    return {"text": ev, "json": _share(rows, "ev_json"), "bm25": bm, "answer_text": _share(rows, "ans_text"),
            "answer_bm25": _share(rows, "ans_bm25")}


def main() -> None:  # the same as `python benchmarks/quality.py --only conversations`
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from quality import main as quality_main

    sys.argv[1:] = ["--only", "conversations", *sys.argv[1:]]
    quality_main()


if __name__ == "__main__":
    main()
