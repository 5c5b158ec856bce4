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


def name_problem(name: str) -> str | None:
    """Why a knowledge base's name is refused (it reads as a path, or holds a control character), or None.
    The id is a slug of it either way; the name is shown, so it must not look like a folder to go to."""
    if "/" in name or "\\" in name:
        return "must not contain a path separator ('/' or '\\')"
    if ".." in name:
        return "must not contain '..'"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return "must not contain control characters"
    return None


def is_valid_kb_id(value: str) -> bool:
    return bool(KB_ID_RE.match(value))


def is_valid_job_id(value: str) -> bool:
    return bool(JOB_ID_RE.match(value))


def job_id(now_us: int, sequence: int) -> str:
    return f"job-{now_us}-{sequence}"
