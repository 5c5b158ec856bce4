"""Fuzzing the loopback protocol from its own OpenAPI description (issue 7: "no 5xx, no hang, the store
still consistent afterwards").

The real app runs under uvicorn on 127.0.0.1 with the token set, on a real store in the test's
KCTUI_STATE_DIR, with two real knowledge bases made through the services from tiny source files (one
with a queued manual job, one with a promoted wiki and a running job). Schemathesis loads the document
the server itself answers at `GET /api/v1/knowledge/openapi.json` and generates requests from it, valid
(positive) and schema-violating (negative), and every answer is checked against the same document
(status documented, JSON, response schema) and against the envelope. On top of the generated data the
test varies what a schema cannot express:

- **reach**: with some probability a generated workspace, base id or job id is replaced by a real one
  (job ids are harvested from earlier answers), so requests get past "not found" and change state:
  compile, claim, cancel, results of both outcomes, policy switches;
- **the wire**: no token, a wrong token, another scheme; a body that is not JSON, not UTF-8, not an
  object, or over the 1 MiB limit.

Confinement: every absolute path a request names (workspace, `paths` and `path` to copy) is moved under the test's
sandbox folder when it points elsewhere, so no generated request can create `.a3s/` at `/` or copy a
real tree; that changes where a path points, never whether it is valid.

The runs are deterministic (`derandomize`, no example database) and bounded to keep the file well under
40 s. Afterwards: `PRAGMA integrity_check` is ok, no foreign key is dangling, at most one job is
running, and every base's active job is an open job of that base.
"""


from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.integration.api.fuzz.world import (
    CLIENT_TIMEOUT,
    CONCURRENT_EXAMPLES,
    FUZZ_SETTINGS,
    SEQUENTIAL_EXAMPLES,
    Tally,
    World,
    assert_store_consistent,
    cases,
    reach,
    send,
)

# -- the tests ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_fuzzed_requests_from_the_openapi_document(schema: Any, live: str, world: World) -> None:
    tally = Tally()
    with requests.Session() as session:
        session.trust_env = False

        @settings(max_examples=SEQUENTIAL_EXAMPLES, **FUZZ_SETTINGS)
        @given(case=cases(schema), pins=reach())
        def run(case: Any, pins: dict[str, Any]) -> None:
            send(case, pins, world, live, session, tally)

        run()
    print("\nsequential fuzz:", tally.report(), "; jobs by phase afterwards:", assert_store_consistent())
    documented = {op.ok().label for op in schema.get_all_operations()}
    assert set(tally.by_operation) == documented, "every operation was exercised"
    # the fuzzer gets past "not found": state-changing answers happened, not only rejections
    assert {"POST /api/v1/knowledge/bases", "POST /api/v1/knowledge/bases/{id}/compilations",
            "POST /api/v1/knowledge/compilations/claim", "GET /api/v1/knowledge/bases/{id}/compilation",
            "GET /api/v1/knowledge/bases/{id}/source-changes",
            "POST /api/v1/knowledge/bases/{id}/compilations/{jobId}/result"} <= set(tally.ok_operations), tally.report()
    assert tally.by_status[400] and tally.by_status[401] and tally.by_status[404] and tally.by_status[413]


@pytest.mark.slow
def test_fuzzed_requests_in_concurrent_bursts(schema: Any, live: str, world: World) -> None:
    """Bursts of generated requests at once (claims, results, cancels, compiles racing each other):
    still no 5xx and no hang, and still one running job at most."""
    tally = Tally()
    local = threading.local()
    sessions: list[requests.Session] = []

    def session() -> requests.Session:
        if getattr(local, "session", None) is None:
            local.session = requests.Session()
            local.session.trust_env = False
            sessions.append(local.session)
        return local.session

    try:
        with ThreadPoolExecutor(max_workers=6) as pool:

            @settings(max_examples=CONCURRENT_EXAMPLES, **FUZZ_SETTINGS)
            @given(burst=st.lists(st.tuples(cases(schema), reach()), min_size=4, max_size=8))
            def run(burst: list[tuple[Any, dict[str, Any]]]) -> None:
                # session() inside the worker: one requests.Session per thread (they are not thread-safe)
                futures = [pool.submit(lambda c=c, p=p: send(c, p, world, live, session(), tally)) for c, p in burst]
                for f in futures:
                    f.result(timeout=CLIENT_TIMEOUT * 2)

            run()
    finally:
        for s in sessions:
            s.close()
    print("\nconcurrent fuzz:", tally.report(), "; jobs by phase afterwards:", assert_store_consistent())
