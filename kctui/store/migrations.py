"""Versioned schema migrations. Entry N (1-based) brings the database to `PRAGMA user_version = N`.
Never edit a released entry; append a new one."""

from __future__ import annotations

_V1 = [
    """CREATE TABLE workspaces (
        path TEXT PRIMARY KEY,
        added_at INTEGER NOT NULL
    )""",
    """CREATE TABLE bases (
        workspace TEXT NOT NULL REFERENCES workspaces(path) ON DELETE CASCADE,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        policy TEXT NOT NULL DEFAULT 'manual' CHECK (policy IN ('manual', 'smart_auto')),
        phase TEXT NOT NULL DEFAULT 'source_ready'
            CHECK (phase IN ('source_ready', 'queued', 'running', 'succeeded', 'failed', 'paused')),
        source_digest TEXT,
        last_compiled_digest TEXT,
        active_job_id TEXT,
        follow_up INTEGER NOT NULL DEFAULT 0,
        retry_attempts INTEGER NOT NULL DEFAULT 0,
        last_requested_at INTEGER,
        last_succeeded_at INTEGER,
        last_failed_at INTEGER,
        last_error TEXT,
        last_error_code TEXT,
        paused_reason TEXT,
        compiler_version TEXT,
        change_detected_at INTEGER,
        last_auto_requested_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (workspace, id)
    )""",
    """CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'retry', 'smart_auto')),
        priority INTEGER NOT NULL,
        phase TEXT NOT NULL CHECK (phase IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        source_digest TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        not_before INTEGER,
        started_at INTEGER,
        completed_at INTEGER,
        error TEXT,
        error_code TEXT,
        transient INTEGER,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        claimed_by TEXT,
        claim_pid INTEGER,
        lease_expires_at INTEGER,
        compiler_version TEXT,
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    # Exactly one running job across all workspaces, enforced by the database itself.
    "CREATE UNIQUE INDEX jobs_one_running ON jobs(phase) WHERE phase = 'running'",
    # At most one queued job per base (a manual request updates it instead of adding another).
    "CREATE UNIQUE INDEX jobs_one_queued_per_base ON jobs(workspace, base_id) WHERE phase = 'queued'",
    "CREATE INDEX jobs_claim_order ON jobs(phase, priority, created_at, id)",
    "CREATE INDEX jobs_by_base ON jobs(workspace, base_id, created_at)",
    """CREATE TABLE sequences (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
    )""",
    # The last accepted source snapshot of each base: {path: [digest, size]} as JSON (host.md §2, §4).
    """CREATE TABLE snapshots (
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        digest TEXT,
        files_json TEXT NOT NULL,
        file_count INTEGER NOT NULL,
        total_bytes INTEGER NOT NULL,
        accepted_at INTEGER NOT NULL,
        PRIMARY KEY (workspace, base_id),
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
]

MIGRATIONS: list[list[str]] = [_V1]

_V2 = [
    # The change brief of each finished job (trust.md §7), kept after the job folder is removed.
    """CREATE TABLE briefs (
        job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        markdown TEXT NOT NULL,
        created_at INTEGER NOT NULL
    )""",
    # The trust policy of each base (trust.md §2) as validated JSON; absent = the defaults.
    """CREATE TABLE trust_policies (
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        policy_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (workspace, base_id),
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
]

MIGRATIONS.append(_V2)

_V3 = [
    # Every page write is an immutable revision (trust.md §6): number, body, author, time, reason.
    """CREATE TABLE page_revisions (
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        page_path TEXT NOT NULL,
        slug TEXT NOT NULL,
        number INTEGER NOT NULL,
        body TEXT NOT NULL,
        body_digest TEXT NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0,
        author TEXT NOT NULL,
        at INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (workspace, base_id, page_path, number),
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    "CREATE INDEX page_revisions_by_slug ON page_revisions(workspace, base_id, slug, number)",
    # Revisions are immutable: refuse any UPDATE at the database level.
    """CREATE TRIGGER page_revisions_immutable BEFORE UPDATE ON page_revisions
       BEGIN SELECT RAISE(ABORT, 'page revisions are immutable'); END""",
]

MIGRATIONS.append(_V3)

_V4 = [
    # The review queue (trust.md §4): held updates keep the exact body they wanted to write; conflicts
    # keep both values and both citations.
    """CREATE TABLE review_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        job_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('held', 'conflict')),
        page_path TEXT NOT NULL,
        slug TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        update_kind TEXT,
        reason TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        proposed_body TEXT,
        details_json TEXT NOT NULL DEFAULT '{}',
        expected_revision INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'open' CHECK (state IN
            ('open', 'approved', 'rejected', 'resolved_new', 'resolved_keep', 'dismissed', 'superseded')),
        created_at INTEGER NOT NULL,
        resolved_at INTEGER,
        resolved_by TEXT,
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    "CREATE INDEX review_items_open ON review_items(state, workspace, base_id, page_path)",
]

MIGRATIONS.append(_V4)

_V5 = [
    # Live progress of a pass, readable by the app while the job runs (trust.md §7 live checklist).
    """CREATE TABLE job_steps (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        step TEXT NOT NULL,
        position INTEGER NOT NULL,
        state TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        current TEXT NOT NULL DEFAULT '',
        message TEXT NOT NULL DEFAULT '',
        started_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (job_id, step)
    )""",
    """CREATE TABLE job_log (
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (job_id, seq)
    )""",
]

MIGRATIONS.append(_V5)

_V6 = [
    # What the host's last reconcile scan saw, for `kctui status` and the app in other processes.
    """CREATE TABLE scan_state (
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        scanned_at INTEGER NOT NULL,
        digest TEXT,
        file_count INTEGER NOT NULL DEFAULT 0,
        total_bytes INTEGER NOT NULL DEFAULT 0,
        unstable_json TEXT NOT NULL DEFAULT '[]',
        changes_json TEXT NOT NULL DEFAULT '{}',
        skipped_json TEXT NOT NULL DEFAULT '[]',
        error TEXT,
        PRIMARY KEY (workspace, base_id),
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    """CREATE TABLE host_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
    )""",
]

MIGRATIONS.append(_V6)

_V7 = [
    # Held change sets (issue 13): the pages one review item revises, each with its own proposal and
    # the revision the reviewer saw. A single-page item has one row.
    """CREATE TABLE review_item_pages (
        item_id INTEGER NOT NULL REFERENCES review_items(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        page_path TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        update_kind TEXT,
        reason TEXT NOT NULL DEFAULT '',
        summary TEXT NOT NULL DEFAULT '',
        proposed_body TEXT,
        expected_revision INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (item_id, page_path)
    )""",
    "CREATE INDEX review_item_pages_page ON review_item_pages(page_path, item_id)",
    # Existing items become one-page sets.
    """INSERT INTO review_item_pages(item_id, position, page_path, title, update_kind, reason, summary,
        proposed_body, expected_revision)
        SELECT id, 0, page_path, title, update_kind, reason, summary, proposed_body, expected_revision
        FROM review_items""",
]

MIGRATIONS.append(_V7)

# Scheduled compiles (issue 16): a job may be `scheduled`, and a base remembers the last slot of its
# schedule it settled. SQLite cannot widen a CHECK in place, so the jobs table is rebuilt (the documented
# twelve-step way: foreign keys off around the transaction, checked before it commits).
_V8 = [
    """CREATE TABLE jobs_v8 (
        id TEXT PRIMARY KEY,
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'retry', 'smart_auto', 'scheduled')),
        priority INTEGER NOT NULL,
        phase TEXT NOT NULL CHECK (phase IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        source_digest TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        not_before INTEGER,
        started_at INTEGER,
        completed_at INTEGER,
        error TEXT,
        error_code TEXT,
        transient INTEGER,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        claimed_by TEXT,
        claim_pid INTEGER,
        lease_expires_at INTEGER,
        compiler_version TEXT,
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    "INSERT INTO jobs_v8 SELECT * FROM jobs",
    "DROP TABLE jobs",
    "ALTER TABLE jobs_v8 RENAME TO jobs",
    "CREATE UNIQUE INDEX jobs_one_running ON jobs(phase) WHERE phase = 'running'",
    "CREATE UNIQUE INDEX jobs_one_queued_per_base ON jobs(workspace, base_id) WHERE phase = 'queued'",
    "CREATE INDEX jobs_claim_order ON jobs(phase, priority, created_at, id)",
    "CREATE INDEX jobs_by_base ON jobs(workspace, base_id, created_at)",
    "ALTER TABLE bases ADD COLUMN last_scheduled_at INTEGER",
]

MIGRATIONS.append(_V8)
# A review session (issue 35): every decision as it was published (the pages' revisions before and
# after, the proposals of other items it rebased, the hunks taken), so it can be undone through
# promotion; and which items a person has read (a mark cleared when the item's content changes).
_V9 = [
    """CREATE TABLE review_decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL,
        base_id TEXT NOT NULL,
        items_json TEXT NOT NULL,
        pages_json TEXT NOT NULL,
        rebased_json TEXT NOT NULL DEFAULT '[]',
        hunks_json TEXT,
        actor TEXT NOT NULL,
        at INTEGER NOT NULL,
        undone_at INTEGER,
        undone_by TEXT,
        FOREIGN KEY (workspace, base_id) REFERENCES bases(workspace, id) ON DELETE CASCADE
    )""",
    "CREATE INDEX review_decisions_by_base ON review_decisions(workspace, base_id, id)",
    """CREATE TABLE review_reads (
        item_id INTEGER PRIMARY KEY REFERENCES review_items(id) ON DELETE CASCADE,
        read_at INTEGER NOT NULL,
        reader TEXT NOT NULL DEFAULT ''
    )""",
]

MIGRATIONS.append(_V9)

# Migrations that rebuild a table others reference: run with foreign keys off (checked before commit).
FOREIGN_KEYS_OFF: frozenset[int] = frozenset({8})
