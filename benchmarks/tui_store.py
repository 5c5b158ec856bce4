"""The tui benchmark's store: twelve bases with a few sources each, then 10,000 jobs (85 % succeeded, 10 %
failed, 5 % cancelled) and 5,000 open review items (half held updates, half conflicts) and 200 briefs,
inserted directly with SQL for speed. Used by benchmarks/tui.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

US = 1_000_000


def build_store(svc, clock, root: Path, n_jobs: int, n_items: int) -> Path:
    from kctui import paths
    from kctui.services import bases

    ws = root / "ws"
    ws.mkdir()
    ids = []
    for i in range(12):
        _, b = bases.create_base(svc, ws, f"Base {i:02d}")
        src = paths.sources_path(ws, b.id)
        for k in range(5):
            (src / f"note{k}.md").write_text(f"# Note {k}\n\nline {i} {k}\n", encoding="utf-8")
        ids.append(b.id)
    wss = str(ws.resolve())
    rnd = random.Random(6)
    now = clock.now_us()
    with svc.store.write() as conn:
        rows = []
        for n in range(n_jobs):
            created = now - (n_jobs - n) * 60 * US
            phase = rnd.choices(["succeeded", "failed", "cancelled"], [85, 10, 5])[0]
            rows.append((f"job-{created}-{n + 1}", wss, ids[n % len(ids)], rnd.choice(["manual", "smart_auto"]), 0,
                         phase, "sha256:" + "0" * 64, created, created + US, created + 9 * US,
                         "the compiler reported a failure" if phase == "failed" else None,
                         "compiler_reported" if phase == "failed" else None))
        conn.executemany("INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at, "
                         "started_at, completed_at, error, error_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.execute("INSERT OR REPLACE INTO sequences(name, value) VALUES ('job', ?)", (n_jobs + 1,))
        body = "---\ntitle: Page\n---\n\n# Page\n\n" + "- a fact about something: 42 ^[a.md:L1-L1]\n" * 20
        items = []
        for n in range(n_items):
            kind = "held" if n % 2 else "conflict"
            details = {} if kind == "held" else {
                "existing": {"value": "1000", "citation": "note1.md:L3-L3", "source": "note1.md"},
                "incoming": {"value": "500", "citation": "note2.md:L3-L3", "source": "note2.md"}}
            items.append((wss, ids[n % len(ids)], rows[n % max(1, len(rows))][0] if rows else "job-0-0", kind,
                          f"concepts/page{n}.md", f"page{n}", f"Page {n}", "revise" if kind == "held" else None,
                          "autonomy_ceiling" if kind == "held" else "contradiction", f"summary {n}", body,
                          json.dumps(details), 1, now))
        conn.executemany("INSERT INTO review_items(workspace, base_id, job_id, kind, page_path, slug, title, "
                         "update_kind, reason, summary, proposed_body, details_json, expected_revision, created_at) "
                         "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", items)
        for r in rows[-200:]:
            conn.execute("INSERT INTO briefs(job_id, workspace, base_id, markdown, created_at) VALUES (?,?,?,?,?)",
                         (r[0], wss, r[2], f"# Brief {r[0]}\n\n" + "- page updated\n" * 30, r[7]))
    return ws
