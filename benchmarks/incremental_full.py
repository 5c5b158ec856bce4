"""Check: an incremental compile pass writes what a full pass writes, on the notes corpus.

    python benchmarks/incremental_full.py              # every writer under benchmarks/data/notes
    python benchmarks/incremental_full.py --writers ae # writers a and e only
    python benchmarks/incremental_full.py --corpora    # also the three shared corpora (about 1 min more)

For each writer's notes (labels and questions left out): a full pass, then four scripted changes, each
compiled twice from the same previous wiki, incrementally (a long-lived extraction cache) and in full:

  1. the middle note (by name) removed,
  2. it comes back,
  3. a line that names three of its capitalised words in lower case appended to the first note,
  4. the last two lines of the last note cut.

With `--corpora`, the three shared corpora of the compile goldens (tests/helpers/golden.py: endoflife,
the RFCs, the handbook) too, each over the goldens' five scripted changes (a sentence appended, a line
cut, a note added, a file removed).

Each pair's wiki trees are compared byte for byte; the pages that differ are listed. Exit 1 when any do.
This is a check, not a timing: what it finds is a bug in the incremental path (kctui.compiler.steps).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

NOTES = Path(__file__).resolve().parent / "data" / "notes"
sys.path.insert(0, str(NOTES.parents[2]))  # the repository root: tests.helpers
from tests.helpers.passes import compile_into as _compile  # noqa: E402
from tests.helpers.passes import tree as _tree  # noqa: E402


def _changes(src: Path) -> list[Callable[[], None]]:
    files = sorted(src.glob("*.md"))
    middle = files[len(files) // 2]
    kept = middle.read_text(encoding="utf-8")

    def remove() -> None:
        middle.unlink()

    def restore() -> None:
        middle.write_text(kept, encoding="utf-8")

    def append() -> None:
        words = [w for w in kept.split() if w[:1].isupper() and w.isalpha()][:3]
        first = files[0]
        first.write_text(first.read_text(encoding="utf-8") + "\n- " + " and ".join(w.lower() for w in words)
                         + " were checked on 2026-02-03.\n", encoding="utf-8")

    def cut() -> None:
        last = files[-1]
        last.write_text("".join(last.read_text(encoding="utf-8").splitlines(keepends=True)[:-2]), encoding="utf-8")

    return [remove, restore, append, cut]


def check(writer: Path, work: Path) -> list[str]:
    """The differences (one line each) between incremental and full passes over the scripted changes."""
    src = work / "sources"
    src.mkdir(parents=True)
    for note in sorted(writer.glob("*.md")):
        shutil.copy2(note, src / note.name)
    return _passes(writer.name, work, _changes(src))


def _passes(name: str, work: Path, changes: list[Callable[[], None]]) -> list[str]:
    cache = work / "cache"
    _compile(work, "g0", None, cache=cache)
    found: list[str] = []
    prev = "g0"
    for i, change in enumerate(changes, 1):
        change()
        inc, full = _tree(_compile(work, f"g{i}", prev, cache=cache)), _tree(_compile(work, f"g{i}", prev, full=True))
        differ = sorted(k for k in set(inc) | set(full) if inc.get(k) != full.get(k))
        if differ:
            found.append(f"{name}, change {i} ({change.__name__}): {len(differ)} pages differ: "
                         + ", ".join(differ[:6]) + (" …" if len(differ) > 6 else ""))
        prev = f"g{i}"
    return found


def check_corpus(name: str, source: Path, work: Path) -> list[str]:
    """`check` on a copy of a shared corpus, over the compile goldens' scripted changes."""
    from tests.helpers import golden

    src = work / "sources"
    shutil.copytree(source, src)

    def change(n: int) -> Callable[[], None]:
        def run() -> None:
            golden._change(src, n)
        run.__name__ = ("append", "cut", "add", "remove")[n % 4]
        return run

    return _passes(name, work, [change(n) for n in range(1, golden.ROUNDS + 1)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", default="", help="the writers' letters to check (default: all)")
    parser.add_argument("--corpora", action="store_true", help="also the three shared corpora of the compile goldens")
    args = parser.parse_args()
    writers = sorted(p for p in NOTES.glob("writer-*") if p.is_dir() and (not args.writers or p.name[-1] in args.writers))
    found: list[str] = []
    checked = 0
    with tempfile.TemporaryDirectory(prefix="kctui-incfull-") as tmp:
        for writer in writers:
            got = check(writer, Path(tmp) / writer.name)
            print(f"{writer.name}: " + ("incremental = full on 4 changes" if not got else f"{len(got)} differ"), flush=True)
            found, checked = found + got, checked + 4
        if args.corpora:
            from tests.helpers import golden

            for name, source in golden.CORPORA.items():
                if not source.is_dir():
                    sys.exit(f"the shared corpora are not present at {source}")
                got = check_corpus(name, source, Path(tmp) / name)
                print(f"{name}: " + (f"incremental = full on {golden.ROUNDS} changes" if not got else f"{len(got)} differ"),
                      flush=True)
                found, checked = found + got, checked + golden.ROUNDS
    for line in found:
        print("  " + line)
    print(f"{len(found)} of {checked} changes differ")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
