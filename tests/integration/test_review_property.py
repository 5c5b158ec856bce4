"""Issue 13's property: random sequences of source edits, compiles and review decisions over a small base
(the built-in compiler under the default `guarded` policy, through the host path), and after every step:

- every claim on every page says what its cited lines say in the source revision the page records for
  it; where that is not the current revision (the sources as the last compile read them), the claim is visibly flagged — kept (marker on the line,
  `kept_claims` entry with the pinned digest) or on a page waiting for a person (needs-review /
  contradicted with an open item on it);
- no page shows a value nobody approved: every value is in a revision of its source that existed;
- every open item refers to a page state that exists: each of its pages' expected revision is the
  page's current revision, so a decision made with what the item shows is never refused.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.helpers.review_world import World, rounds, run_steps


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@pytest.mark.slow
@given(steps=rounds)
def test_review_stays_true_under_random_edits_and_decisions(svc, tmp_path, steps) -> None:
    run_steps(World(svc, tmp_path), steps)
