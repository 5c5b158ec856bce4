"""Identifiers of the reference layout (host.md §1): knowledge-base ids and job ids."""

from __future__ import annotations

import hashlib
import re

KB_ID_RE = re.compile(r"^[a-z0-9-]{1,64}$")
JOB_ID_RE = re.compile(r"^[a-z0-9-]{1,96}$")
MAX_NAME_CHARS = 80
MAX_DESCRIPTION_CHARS = 280
MAX_SLUG_CHARS = 56


def kb_id_for_name(name: str) -> str:
    """Slug of the name: ASCII letters/digits lowercased, everything else `-`, collapsed, ≤ 56 chars;
    `kb-<first 12 hex of sha256(name)>` when the slug is empty."""
    out: list[str] = []
    for ch in name:
        if ch.isascii() and ch.isalnum():
            out.append(ch.lower())
        elif not out or out[-1] != "-":
            out.append("-")
    slug = "".join(out).strip("-")[:MAX_SLUG_CHARS].strip("-")
    if not slug:
        return "kb-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]
    return slug


def is_valid_kb_id(value: str) -> bool:
    return bool(KB_ID_RE.match(value))


def is_valid_job_id(value: str) -> bool:
    return bool(JOB_ID_RE.match(value))


def job_id(now_us: int, sequence: int) -> str:
    return f"job-{now_us}-{sequence}"
