"""Random requests (hypothesis) at the live protocol: never a 5xx, always the envelope, and the store still
consistent afterwards."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from tests.integration.api.support import claim, compile_base, new_base

# -- fuzzing ----------------------------------------------------------------------------------------

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=8)


@st.composite
def fuzz_request(draw, ws: str, job_ids: list[str]) -> tuple[str, str, Any, dict[str, str]]:
    kb = quote(draw(st.sampled_from(["fuzz", "fuzz-2", "Fuzz", "no-such", "a" * 70]) | st.text(min_size=1, max_size=12)), safe="")
    kb = kb if kb not in (".", "..") else "dot"
    job = draw(st.sampled_from(job_ids + ["job-1-1", "JOB", "x" * 100]))
    method, path = draw(st.sampled_from([
        ("GET", "/bases"), ("POST", "/bases"), ("POST", f"/bases/{kb}/compilations"),
        ("GET", f"/bases/{kb}/compilation"), ("PATCH", f"/bases/{kb}/compilation-policy"),
        ("GET", f"/bases/{kb}/source-changes"), ("GET", f"/bases/{kb}/compilations/{job}"),
        ("POST", f"/bases/{kb}/compilations/{job}/cancel"), ("POST", "/compilations/claim"),
        ("POST", f"/bases/{kb}/compilations/{job}/result")]))
    fields = {
        # never a real folder outside the test's workspace: a fuzzed "/" would create /.a3s
        "workspace": st.sampled_from([ws, ws + "/", "relative", "/no/such/dir", ""]) | st.integers() | st.none()
        | st.lists(st.integers(), max_size=2),
        "name": st.sampled_from(["Fuzz", "fuzz 2", "x" * 81]) | _json,
        "description": _json, "compilationPolicy": st.sampled_from(["manual", "smart_auto", "often"]) | _json,
        "policy": st.sampled_from(["manual", "smart_auto", "often"]) | _json,
        "outcome": st.sampled_from(["succeeded", "failed", "maybe"]) | _json,
        "transient": _json, "error": _json, "compilerVersion": _json, "errorCode": _json, "unknown": _json,
    }
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=6))
    shape = draw(st.sampled_from(["object", "json", "bytes"]))
    body = ({k: draw(fields[k]) for k in chosen} if shape == "object" else draw(_json) if shape == "json"
            else draw(st.binary(max_size=40) | st.sampled_from([b"NaN", b'{"workspace": NaN}', b"\xff\xfe{}", b"{"])))
    params = {"workspace": draw(st.sampled_from([ws, "relative", "/no/such", ""]))} if method == "GET" else {}
    return method, path, body, params


def test_fuzzed_requests_never_5xx_and_leave_the_store_consistent(api, ws, make_ctx) -> None:
    kb = new_base(api, ws, "Fuzz")
    compile_base(api, ws, kb["id"])
    job_ids = [claim(api)["job"]["id"]]

    @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    @given(req=fuzz_request(ws, job_ids))
    def run(req: tuple[str, str, Any, dict[str, str]]) -> None:
        method, path, body, params = req
        if isinstance(body, bytes):
            r = api.request(method, path, content=body, params=params)
        else:
            r = api.request(method, path, json=body, params=params)
        assert r.status_code < 500, (method, path, body, r.text)
        envelope = r.json()
        assert envelope["code"] == r.status_code and ("data" in envelope) == (r.status_code < 400)

    run()
    ctx = make_ctx()
    assert ctx.store.integrity_ok()
    running = [j for j in jobs_svc.list_jobs(ctx, limit=10_000) if j.phase == "running"]
    assert len(running) <= 1
    for base in bases_svc.list_bases(ctx):
        if base.active_job_id:
            assert [j.id for j in running] == [base.active_job_id]
