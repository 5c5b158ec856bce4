"""The trust policy a compile request carries (trust.md §2), read into a `TrustPolicy`: None means no
trust boundary (a bare compile outside any host); a policy that cannot be read fails closed."""

from __future__ import annotations

from typing import Any

from kctui.core.trust import NeverAutoGuard, TrustPolicy


def policy_of(raw: Any) -> tuple[TrustPolicy | None, str | None]:
    """The request's policy: None (no boundary), a TrustPolicy, or the JSON of `kb policy --json`.
    A policy that cannot be read fails closed: every update is held (with a warning)."""
    if raw is None or isinstance(raw, TrustPolicy):
        return raw, None
    try:
        if not isinstance(raw, dict):
            raise TypeError("not a JSON object")
        d = TrustPolicy()

        def get(camel: str, snake: str, default: Any) -> Any:
            return raw.get(camel, raw.get(snake, default))

        policy = TrustPolicy(
            enabled=bool(get("enabled", "enabled", d.enabled)),
            autonomy=str(get("autonomy", "autonomy", d.autonomy)),
            compile_sources=tuple(str(k) for k in get("compileSources", "compile_sources", d.compile_sources)),
            maintain_kinds=tuple(str(k) for k in get("maintainKinds", "maintain_kinds", d.maintain_kinds)),
            never_auto=tuple(NeverAutoGuard.parse(str(g)) for g in get("neverAuto", "never_auto", [])),
            min_confidence=float(get("minConfidence", "min_confidence", d.min_confidence)),
            stale_days=int(get("staleDays", "stale_days", d.stale_days)),
        )
        if policy.autonomy not in ("suggest", "guarded", "auto") or policy.stale_days < 1:
            raise ValueError(f"autonomy {policy.autonomy!r} / stale days {policy.stale_days}")
        return policy, None
    except (TypeError, ValueError) as exc:
        return TrustPolicy(autonomy="suggest"), f"the trust policy could not be read ({exc}); every update is held"
