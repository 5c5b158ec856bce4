"""Every queue rule of host.md §5 as a table, with the reference boundaries."""

from __future__ import annotations

import pytest

from kctui.core import queue
from kctui.core.ids import is_valid_job_id, is_valid_kb_id, job_id, kb_id_for_name, name_problem
from kctui.core.models import BasePhase

T0 = 1_780_000_000_000_000
S = 1_000_000


@pytest.mark.parametrize(
    "transient, before, retry, delay_s, attempts",
    [
        (True, 0, True, 300, 1),      # first transient failure: retry after 5 min
        (True, 1, True, 1800, 2),     # second: 30 min
        (True, 2, True, 7200, 3),     # third: 2 h
        (True, 3, False, None, 4),    # the fourth consecutive transient failure stays failed
        (True, 7, False, None, 8),
        (False, 0, False, None, 0),   # permanent never retries
        (False, 2, False, None, 0),   # and ends the series
    ],
)
def test_retry_schedule(transient, before, retry, delay_s, attempts):
    d = queue.decide_after_failure(transient, before, T0)
    assert d.retry is retry
    assert d.attempts == attempts
    assert d.retry_at_us == (T0 + delay_s * S if delay_s else None)


@pytest.mark.parametrize(
    "error, expected",
    [
        (None, "knowledge compiler reported a failure"),
        ("", "knowledge compiler reported a failure"),
        ("   \n ", "knowledge compiler reported a failure"),
        ("  boom \n", "boom"),
        ("x" * 999, "x" * 999),
        ("x" * 1000, "x" * 1000),
        ("x" * 1001, "x" * 1000),
        ("é" * 5000, "é" * 1000),
    ],
)
def test_error_trim_and_cut(error, expected):
    assert queue.trim_error(error) == expected


def test_claim_order_manual_retry_smart_auto_then_created_then_id():
    jobs = [
        ("smart_auto", 1, "job-1-1"),
        ("retry", 5, "job-5-1"),
        ("manual", 9, "job-9-2"),
        ("manual", 9, "job-9-1"),
        ("retry", 2, "job-2-1"),
        ("manual", 10, "job-0-1"),
    ]
    ordered = sorted(jobs, key=lambda j: queue.claim_order_key(*j))
    assert ordered == [
        ("manual", 9, "job-9-1"),
        ("manual", 9, "job-9-2"),
        ("manual", 10, "job-0-1"),
        ("retry", 2, "job-2-1"),
        ("retry", 5, "job-5-1"),
        ("smart_auto", 1, "job-1-1"),
    ]


@pytest.mark.parametrize(
    "digest, compiled, expected",
    [
        ("sha256:b", "sha256:a", BasePhase.SOURCE_READY),  # a digest is pending
        ("sha256:a", "sha256:a", BasePhase.SUCCEEDED),     # compiled and nothing pending
        ("sha256:a", None, BasePhase.SOURCE_READY),        # never compiled
        (None, None, BasePhase.SOURCE_READY),
    ],
)
def test_fallback_phase_after_cancel(digest, compiled, expected):
    assert queue.fallback_phase(digest, compiled) == expected


@pytest.mark.parametrize(
    "job_digest, current, expected",
    [("sha256:a", "sha256:a", BasePhase.SUCCEEDED), ("sha256:a", "sha256:b", BasePhase.SOURCE_READY),
     ("sha256:a", None, BasePhase.SUCCEEDED)],
)
def test_phase_after_success(job_digest, current, expected):
    assert queue.phase_after_success(job_digest, current) == expected


@pytest.mark.parametrize(
    "queued, running, new, action",
    [
        (None, None, "sha256:n", "enqueue"),
        ("smart_auto", None, "sha256:n", "promote_queued"),
        ("retry", None, "sha256:n", "promote_queued"),
        ("manual", None, "sha256:n", "promote_queued"),
        (None, "sha256:o", "sha256:n", "follow_up"),
        (None, "sha256:n", "sha256:n", "nothing"),
    ],
)
def test_manual_request(queued, running, new, action):
    assert queue.decide_manual_request(queued, running, new).action == action


@pytest.mark.parametrize(
    "requested, job, current, expected",
    [(True, "a", "b", True), (True, "a", "a", False), (False, "a", "b", False), (True, "a", None, False)],
)
def test_follow_up_only_after_a_run_that_saw_new_changes(requested, job, current, expected):
    assert queue.should_queue_follow_up(requested, job, current) is expected


def test_lease():
    exp = queue.lease_expires_at(T0)
    assert exp == T0 + 3600 * S
    assert not queue.lease_expired(exp, exp - 1)
    assert queue.lease_expired(exp, exp)
    assert not queue.lease_expired(None, T0)


@pytest.mark.parametrize(
    "version, expected", [(None, "1"), ("", "1"), ("  ", "1"), ("my-compiler/1.4.0", "my-compiler/1.4.0")]
)
def test_compiler_version_default(version, expected):
    assert queue.compiler_version_or_default(version) == expected


@pytest.mark.parametrize("code, expected", [(None, "compiler_reported"), ("bogus", "compiler_reported"),
                                            ("invalid_output", "invalid_output")])
def test_external_failure_code(code, expected):
    assert queue.failure_code_for_external(code) == expected


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Project", "project"),
        ("My  Notes!!", "my-notes"),
        ("--Hello--World--", "hello-world"),
        ("Ünïcode Café", "n-code-caf"),
        ("x" * 100, "x" * 56),
        ("a" * 55 + " b", "a" * 55),
    ],
)
def test_kb_id_slug(name, expected):
    assert kb_id_for_name(name) == expected
    assert is_valid_kb_id(kb_id_for_name(name))


def test_kb_id_empty_slug_uses_hash():
    kid = kb_id_for_name("日本語")
    assert kid.startswith("kb-") and len(kid) == 15 and is_valid_kb_id(kid)


@pytest.mark.parametrize("value, ok", [("abc", True), ("a-b-1", True), ("", False), ("A", False), ("a_b", False),
                                       ("../x", False), ("a" * 64, True), ("a" * 65, False)])
def test_kb_id_validation(value, ok):
    assert is_valid_kb_id(value) is ok


def test_job_id_format():
    jid = job_id(T0, 7)
    assert jid == f"job-{T0}-7" and is_valid_job_id(jid)


@pytest.mark.parametrize(
    "name, problem",
    [
        ("Team notes", None),
        ("R&D: 2026 (draft)", None),
        ("v1.2 notes", None),
        ("bad name/..", "path separator"),
        ("a\\b", "path separator"),
        ("up .. there", "'..'"),
        ("tab\there", "control characters"),
    ],
)
def test_a_base_name_must_not_read_as_a_path(name, problem):
    found = name_problem(name)
    assert (found is None) if problem is None else (problem in found)
