"""Benchmark: the built-in compiler on the real corpora, against an anchor measured in the same run.

    python benchmarks/compile.py                # endoflife 2026 folder + all rust-rfcs, 3 full runs, 5 rounds
    python benchmarks/compile.py --full-runs 5 --rounds 7   # more samples (min and median are reported)
    python benchmarks/compile.py --corpus /path/to/shared/corpus --no-policy

For each corpus, in child processes:
  full         first compile: no previous wiki, empty extraction cache (--full-runs times, each from an
               empty cache, each in a fresh process); extraction uses every core (the process pool)
  incremental  one source file changed (a release cycle added, or a sentence appended), then a pass over
               the previous wiki, --rounds times, each on its own file, after each full run (the two
               take turns, so a slower stretch of the machine weighs on both; the median of all rounds
               is the one compared). Measured as the host runs them:
               in one long-lived worker process (`kctui serve`, the app) that compiled this base before
               (one untimed pass first), each generation replacing the last as promotion does (the old
               tree is deleted, which moves the ctime of every page carried into the new one by a hard
               link), the heap settled after each job (kctui.services.heap). Printed beside: the same
               rounds each in a fresh process — the first pass of a restarted worker, which reads the
               page memo from disk instead of finding it in memory.
  anchor       read every source file and parse it with markdown-it-py (CommonMark + tables): the
               floor any Markdown compiler pays, to put the full time in proportion

The goals are measured on the compiler's own pass (no trust boundary, as in the compiler's tests).
Then, for endoflife, a full pass and the worker's rounds run again with the trust policy a new
knowledge base has (`TrustPolicy()`: guarded autonomy, stale pages flagged after 90 days), as the host
passes it, printed beside with the review items open (a held update is proposed again in full by every
later pass: work of its own). `--no-policy` skips those runs.

Every child has the modules a running worker has loaded imported, one tiny document extracted (the
word list loaded, the rules' patterns compiled) and two passes over a tiny base of its own run (as the
host's long-lived worker has done before any pass it runs), then what that worker does after each job
(collect once, freeze the survivors), before the clock starts. Printed: seconds (min and median), CPU
seconds of the pass including its worker processes, files/s, MB/s, peak RSS, and the ratios
full/incremental (medians) and full/anchor. The machine is shared: run it twice, read the min.
Goals (issue 12): full ≤ 3.5 s on the 2026 folder and ≤ 2.5 s on the RFCs, incremental ≥ 50 × faster
than full; (issue 4) peak RSS ≤ 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def _child(args: argparse.Namespace) -> None:
    """Run one phase in this (fresh) process and print a JSON line."""
    # benchmarks/queue.py would shadow the standard library's `queue` (the process pool imports it)
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    sys.path.insert(0, str(ROOT))
    kb = Path(args.kb)
    if args.phase == "anchor":
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark").enable("table")
        c0 = os.times()
        t0 = time.perf_counter()
        total = 0
        for path in sorted((kb / "sources").rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                total += len(data)
                md.parse(data.decode("utf-8", errors="replace"))
        seconds = time.perf_counter() - t0
        c1 = os.times()
    else:
        from kctui.compiler.builtin import facts, names, prose  # noqa: F401 - a worker has them loaded
        from kctui.compiler.builtin.document import extract_document
        from kctui.compiler.readers import read_source

        # a running worker has also extracted before: its word list is loaded and the patterns the rules
        # build are in `re`'s cache (a one-time cost of a process, not of a pass)
        names.zipf("warm")
        extract_document(read_source("warm.md", b"# Warm\n\nWarm Tool is a tool. Ada Lovelace owns it.\n", "sha256:" + "0" * 64))
        from kctui.compiler.readers import html, markdown, pdf, text  # noqa: F401
        from kctui.compiler.runner import CompileRequest
        from kctui.compiler.steps.pipeline import compile_pass

        _warm_up(compile_pass, CompileRequest)
        from kctui.services.heap import HeapSettler

        HeapSettler()()  # what the headless host's worker does after each job (kctui.services.heap)
        if args.phase == "worker":
            _worker_rounds(args, compile_pass, CompileRequest, HeapSettler())
            return
        prev = kb / args.prev / "wiki" if args.prev else None
        from kctui.core.trust import TrustPolicy

        request = CompileRequest(args.job, "manual", "sha256:" + "0" * 64, args.at, kb / "sources", prev,
                                 kb / args.job / "wiki", trust_policy=TrustPolicy() if args.policy else None)
        c0 = os.times()
        t0 = time.perf_counter()
        result = compile_pass(request)
        seconds = time.perf_counter() - t0
        c1 = os.times()
        total = result.report.files_read
        held = len(result.review_items)
    cpu = sum(getattr(c1, k) - getattr(c0, k) for k in ("user", "system", "children_user", "children_system"))
    rss_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss_mb": rss_mb, "total": total,
                      "held": held if args.phase != "anchor" else 0}))


def _worker_rounds(args: argparse.Namespace, compile_pass, CompileRequest, settle) -> None:  # noqa: ANN001, N803
    """The host's long-lived worker compiling one base: a pass it ran before (untimed: the previous
    wiki is another process's, as after a restart), then `--rounds` timed passes, each after one file
    changed, each generation replacing the last as promotion does, the heap settled after each job."""
    from kctui.core.trust import TrustPolicy

    kb = Path(args.kb)
    policy = TrustPolicy() if args.policy else None
    prev, samples, held = args.prev, [], 0
    for i in [args.rounds, *range(args.rounds)]:
        _change_one(kb, i)
        job = f"w{len(samples)}" if prev != args.prev else "w-before"
        request = CompileRequest(job, "manual", "sha256:" + "0" * 64, f"2026-09-{1 + len(samples):02d}T00:00:00Z",
                                 kb / "sources", kb / prev / "wiki", kb / job / "wiki", trust_policy=policy)
        t0 = time.perf_counter()
        result = compile_pass(request)
        seconds = time.perf_counter() - t0
        if job != "w-before":
            samples.append(seconds)
            held = max(held, len(result.review_items))
        shutil.rmtree(kb / prev)  # what promotion does to the generation this pass replaced
        prev = job
        settle()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"samples": samples, "rss_mb": rss_mb, "last": prev, "held": held}))


def _warm_up(compile_pass, CompileRequest) -> None:  # noqa: ANN001, N803
    """A running worker has compiled before: two passes (a first one, then one after an edit) over a
    tiny base of its own, so the code paths of a pass have run once in this process. Nothing of the
    measured corpus is read, cached or kept."""
    with tempfile.TemporaryDirectory(prefix="kctui-warm-") as tmp:
        base = Path(tmp)
        (base / "sources").mkdir()
        note = base / "sources" / "warm.md"
        note.write_text("---\ntitle: Warm Tool\nreleases:\n  - cycle: \"1\"\n    eol: false\n  - cycle: \"2\"\n"
                        "    eol: true\n---\n# Warm Tool\n\nWarm Tool is a tool. Ada Lovelace owns Warm Tool.\n",
                        encoding="utf-8")
        for job, prev in (("w1", None), ("w2", "w1")):
            if prev:
                note.write_text(note.read_text(encoding="utf-8") + "\nWarm Tool version 2.1 was released on 2026-01-02.\n",
                                encoding="utf-8")
            compile_pass(CompileRequest(job, "manual", "sha256:" + "0" * 64, "2026-01-01T00:00:00Z", base / "sources",
                                        base / prev / "wiki" if prev else None, base / job / "wiki"))


def _run(kb: Path, phase: str, job: str = "", prev: str = "", at: str = "2026-08-22T00:00:00Z",
         policy: bool = False, rounds: int = 0) -> dict:
    cmd = [sys.executable, __file__, "--child", phase, "--kb", str(kb), "--job", job, "--prev", prev, "--at", at,
           "--rounds", str(rounds)]
    cmd += ["--policy"] if policy else []
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _change_one(kb: Path, index: int) -> str:
    files = sorted(p for p in (kb / "sources").rglob("*.md"))
    target = files[(index * 37) % len(files)]
    text = target.read_text(encoding="utf-8")
    if "\nreleases:\n" in text:
        text = text.replace("\nreleases:\n", f'\nreleases:\n  - releaseCycle: "99.{index}"\n    eol: false\n    latest: "99.{index}.1"\n', 1)
    else:
        text += f"\nA benchmark note is a sentence added in round {index}.\n"
    target.write_text(text, encoding="utf-8")
    return target.relative_to(kb / "sources").as_posix()


def _rounds(kb: Path, rounds: int, policy: bool = False) -> list[dict]:
    """Incremental rounds in a fresh process each: every pass is a restarted worker's first."""
    incs = []
    prev = "full"
    for i in range(rounds):
        changed = _change_one(kb, i)
        job = f"inc{i}"
        r = _run(kb, "compile", job=job, prev=prev, at=f"2026-08-{23 + i:02d}T00:00:00Z", policy=policy)
        r["changed"] = changed
        incs.append(r)
        shutil.rmtree(kb / prev)  # what promotion does to the generation this pass replaced
        prev = job
    return incs


def _with_policy(source: Path, rounds: int, work: Path) -> dict:
    """One full pass and the incremental rounds with the default trust policy, on a copy of their own."""
    kb = work / "policy"
    shutil.copytree(source, kb / "sources")
    full = _run(kb, "compile", job="full", policy=True)
    worker = _run(kb, "worker", prev="full", policy=True, rounds=rounds)
    shutil.rmtree(kb)
    return {"full": full, "incs": [{"seconds": s} for s in worker["samples"]], "held": worker["held"],
            "inc_seconds": statistics.median(worker["samples"])}


def bench(name: str, source: Path, rounds: int, work: Path, full_runs: int = 3, policy: bool = False) -> dict:
    kb = work / name
    files = sorted(p for p in source.rglob("*") if p.is_file())
    shutil.copytree(source, kb / "sources")
    size_mb = sum(p.stat().st_size for p in files) / 1e6
    anchor = _run(kb, "anchor")
    fulls, batches, cold = [], [], []
    # each full run is followed by the worker's rounds on the wiki it wrote: the two kinds of sample take
    # turns, so a stretch of a slower (or faster) machine weighs on both sides of the ratio alike
    for n in range(max(1, full_runs)):
        for old in kb.iterdir():
            if old.name != "sources":
                shutil.rmtree(old)  # an empty extraction cache every time, and no generation left over
        fulls.append(_run(kb, "compile", job="full"))
        if n == 0:
            cold = _rounds(kb, rounds)
        batches.append(_run(kb, "worker", prev=f"inc{rounds - 1}" if n == 0 else "full", rounds=rounds))
    full = {"seconds": statistics.median(r["seconds"] for r in fulls), "min": min(r["seconds"] for r in fulls),
            "cpu": statistics.median(r["cpu"] for r in fulls), "rss_mb": max(r["rss_mb"] for r in fulls),
            "samples": [r["seconds"] for r in fulls]}
    samples = [s for b in batches for s in b["samples"]]
    return {
        "name": name, "files": len(files), "mb": size_mb, "anchor": anchor, "full": full,
        "incs": [{"seconds": s} for s in samples], "batches": [statistics.median(b["samples"]) for b in batches],
        "cold": cold, "cold_seconds": statistics.median(r["seconds"] for r in cold),
        "inc_seconds": statistics.median(samples), "inc_min": min(samples),
        "inc_rss": max(*(b["rss_mb"] for b in batches), *(r["rss_mb"] for r in cold)),
        "policy": _with_policy(source, rounds, work / name.replace(" ", "-")) if policy else None,
    }


def report(r: dict) -> None:
    full, anchor = r["full"], r["anchor"]
    print(f"\n== {r['name']}: {r['files']} files, {r['mb']:.2f} MB")
    print(f"  anchor (read + markdown-it parse) {anchor['seconds']:8.3f} s  {r['files'] / anchor['seconds']:8.0f} files/s"
          f"  {r['mb'] / anchor['seconds']:6.2f} MB/s  peak RSS {anchor['rss_mb']:6.1f} MB")
    fulls = ", ".join(f"{x:.3f}" for x in full["samples"])
    print(f"  full compile (median of {len(full['samples'])})        {full['seconds']:8.3f} s  {r['files'] / full['seconds']:8.0f} files/s"
          f"  {r['mb'] / full['seconds']:6.2f} MB/s  peak RSS {full['rss_mb']:6.1f} MB  min {full['min']:.3f} s"
          f"  CPU {full['cpu']:.2f} s  ({fulls})")
    batches = ", ".join(f"{x:.3f}" for x in r["batches"])
    print(f"  incremental (1 file, median of {len(r['incs'])}) {r['inc_seconds']:8.3f} s"
          f"  peak RSS {r['inc_rss']:6.1f} MB  min {r['inc_min']:.3f} s  long-lived worker, {len(r['batches'])} runs of "
          f"{len(r['incs']) // len(r['batches'])} rounds, one after each full run (medians {batches})")
    cold = ", ".join(f"{x['seconds']:.3f}" for x in r["cold"])
    print(f"  incremental, a restarted worker's first pass (fresh process each, median of {len(r['cold'])})"
          f" {r['cold_seconds']:.3f} s  ({cold})")
    print(f"  ratios: full/incremental {full['seconds'] / r['inc_seconds']:.1f}x (restarted worker "
          f"{full['seconds'] / r['cold_seconds']:.1f}x)   full/anchor {full['seconds'] / anchor['seconds']:.1f}x")
    pol = r.get("policy")
    if pol:
        samples = ", ".join(f"{x['seconds']:.3f}" for x in pol["incs"])
        print(f"  with the default trust policy: full {pol['full']['seconds']:.3f} s (review items open: "
              f"{pol['held']}), incremental (long-lived worker) median {pol['inc_seconds']:.3f} s ({samples}), full/incremental "
              f"{pol['full']['seconds'] / pol['inc_seconds']:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--full-runs", type=int, default=3)
    parser.add_argument("--no-policy", action="store_true", help="skip the runs with the default trust policy")
    parser.add_argument("--policy", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--kb", help=argparse.SUPPRESS)
    parser.add_argument("--job", default="", help=argparse.SUPPRESS)
    parser.add_argument("--prev", default="", help=argparse.SUPPRESS)
    parser.add_argument("--at", default="2026-08-22T00:00:00Z", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.phase = args.child
        _child(args)
        return
    eol = args.corpus / "endoflife" / "2026-08-22" / "products"
    rfcs = args.corpus / "rust-rfcs" / "text"
    if not eol.is_dir() or not rfcs.is_dir():
        sys.exit(f"corpus not found under {args.corpus}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="kctui-bench-") as tmp:
        results = [bench("endoflife 2026-08-22", eol, args.rounds, Path(tmp), args.full_runs, policy=not args.no_policy),
                   bench("rust-rfcs", rfcs, args.rounds, Path(tmp), args.full_runs)]
    print(f"load average after the runs {os.getloadavg()[0]:.2f}")
    for r in results:
        report(r)
    eol_r, rfc_r = results

    def yes(ok: bool) -> str:
        return "yes" if ok else "NO"

    ok_rss = max(max(r["full"]["rss_mb"], r["inc_rss"]) for r in results) <= 300
    print(f"\ngoals: endoflife 2026 full <= 3.5 s: {yes(eol_r['full']['min'] <= 3.5)} (min), "
          f"{yes(eol_r['full']['seconds'] <= 3.5)} (median); rust-rfcs full <= 2.5 s: "
          f"{yes(rfc_r['full']['min'] <= 2.5)} (min), {yes(rfc_r['full']['seconds'] <= 2.5)} (median); "
          f"incremental >= 50x faster on endoflife: {yes(eol_r['full']['seconds'] / eol_r['inc_seconds'] >= 50)}; "
          f"peak RSS <= 300 MB: {yes(ok_rss)}")


if __name__ == "__main__":
    main()
