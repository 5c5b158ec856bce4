"""What a compile pass writes on the three real corpora, recorded as digests, so that a change meant to
move code and change no behaviour can be checked byte for byte (tests/integration/test_compile_golden.py).

Each corpus is compiled in one process as the host's long-lived worker compiles it: a full pass, then
`ROUNDS` incremental passes, each after one scripted change to the sources (a sentence appended, a
line edited, a file added, a file removed), all with the trust policy a new knowledge base has. A run
gives, per pass, the digest of every file of the staged job folder (the wiki, `brief.md` with its step
timings blanked, `review.json`), of the pass's warnings and of its review items.

`python -m tests.helpers.golden` records the digests of the code as it is into
`tests/data/compile_golden.json` (run it only on a commit whose outputs are the reference).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from tests.helpers.corpus import SHARED

CORPORA = {
    "endoflife": SHARED / "corpus" / "endoflife" / "2026-08-22",
    "rust-rfcs": SHARED / "corpus" / "rust-rfcs" / "text",
    "handbook": SHARED / "corpus" / "handbook" / "engineering",
}
ROUNDS = 5
RECORD = Path(__file__).parents[1] / "data" / "compile_golden.json"
_TIMING = re.compile(rb"\d+\.\d{2,3} s")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def _change(src: Path, round_no: int) -> None:
    """One scripted change per round, chosen by the round's number from the sorted Markdown files."""
    files = sorted(p for p in src.rglob("*.md") if p.is_file())
    target = files[(round_no * 37 + 11) % len(files)]
    kind = round_no % 4
    if kind == 0:  # a sentence with a version and a date appended
        target.write_text(target.read_text(encoding="utf-8") + f"\nGolden Tool {round_no}.2 was released on "
                          f"2026-0{round_no + 1}-15 and Golden Tool depends on SQLite 3.46.\n", encoding="utf-8")
    elif kind == 1:  # one line of the file edited (its last non-blank line dropped)
        lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
        last = max(i for i, line in enumerate(lines) if line.strip())
        target.write_text("".join(lines[:last] + lines[last + 1:]), encoding="utf-8")
    elif kind == 2:  # a new note
        (src / f"golden-note-{round_no}.md").write_text(
            f"# Golden note {round_no}\n\nThe Golden Service runs on Postgres 16. Maya Ortiz owns the Golden Service.\n"
            "The contract with Acme Cloud renews on 2026-09-30.\n", encoding="utf-8")
    else:  # a file removed
        target.unlink()


def _job_digests(job_folder: Path) -> dict[str, str]:
    out = {}
    for path in sorted(job_folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name == "brief.md":
                data = _TIMING.sub(b"# s", data)
            out[path.relative_to(job_folder).as_posix()] = _digest(data)
    return out


def run_corpus(source: Path, work: Path, *, previous_store: bool = True) -> list[dict]:
    """The full pass and the incremental rounds on a copy of `source` under `work`: one record per pass
    (every file's digest for the first, what changed against the pass before for the others)."""
    from kctui.compiler.runner import CompileRequest
    from kctui.compiler.steps.pipeline import compile_pass
    from kctui.core.trust import TrustPolicy

    src = work / "kb" / "sources"
    shutil.copytree(source, src)
    cache = work / "kb" / ".a3s" / "cache"
    records, before, prev = [], {}, None
    for n in range(ROUNDS + 1):
        if n:
            _change(src, n)
        job = f"job-{n}"
        out = work / "kb" / ".a3s" / "compilation-output" / job / "wiki"
        request = CompileRequest(job, "manual", "sha256:" + f"{n:064d}", f"2026-09-{n + 1:02d}T00:00:00Z", src,
                                 prev, out, trust_policy=TrustPolicy())
        result = compile_pass(request, cache_dir=cache, previous_store=previous_store)
        files = _job_digests(out.parent)
        record = {
            "warnings": _digest(json.dumps(result.report.warnings, sort_keys=True).encode()),
            "review_items": _digest(json.dumps(result.review_items, sort_keys=True, default=str).encode()),
            "count": len(files),
        }
        if n == 0:
            record["files"] = files
        else:
            record["changed"] = {k: v for k, v in files.items() if before.get(k) != v}
            record["removed"] = sorted(k for k in before if k not in files)
        records.append(record)
        if prev is not None:
            shutil.rmtree(prev.parent)  # what promotion does to the generation this pass replaced
        before, prev = files, out
    return records


def run_all(*, previous_store: bool = True) -> dict[str, list[dict]]:
    out = {}
    for name, source in CORPORA.items():
        with tempfile.TemporaryDirectory(prefix=f"kctui-golden-{name}-") as tmp:
            out[name] = run_corpus(source, Path(tmp), previous_store=previous_store)
    return out


def first_difference(expected: list[dict], got: list[dict]) -> str:
    """The first pass and file (or field) where two runs differ, in words; empty when they agree."""
    for n, (a, b) in enumerate(zip(expected, got)):
        for key in ("warnings", "review_items", "count", "removed"):
            if a.get(key) != b.get(key):
                return f"pass {n}: {key} differ ({a.get(key)!r} != {b.get(key)!r})"
        files_a, files_b = a.get("files", a.get("changed", {})), b.get("files", b.get("changed", {}))
        for path in sorted(set(files_a) | set(files_b)):
            if files_a.get(path) != files_b.get(path):
                return f"pass {n}: {path} differs"
    if len(expected) != len(got):
        return f"{len(expected)} passes recorded, {len(got)} run"
    return ""


if __name__ == "__main__":
    if not all(p.is_dir() for p in CORPORA.values()):
        sys.exit(f"the shared corpora are not present at {SHARED / 'corpus'}")
    RECORD.write_text(json.dumps(run_all(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {RECORD}")
