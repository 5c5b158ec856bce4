"""The in-process transport of the worker loop: the services themselves, claiming as the built-in
compiler. Same shapes as the HTTP protocol, so the loop cannot tell them apart."""

from __future__ import annotations

from typing import Any

from kctui.core.models import CLAIMED_BY_BUILTIN
from kctui.services import jobs, results
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, NotFound
from kctui.services.shapes import claim_json, job_json
from kctui.services.worker import ResultRefused


class LocalTransport:
    def __init__(self, ctx: ServiceContext, claimed_by: str = CLAIMED_BY_BUILTIN) -> None:
        self.ctx = ctx
        self.claimed_by = claimed_by

    def claim(self) -> dict[str, Any]:
        return claim_json(jobs.claim(self.ctx, claimed_by=self.claimed_by))

    def report(self, claim: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        job = claim["job"]
        try:
            _, _, j = results.report_result(
                self.ctx, claim["workspaceRoot"], job["knowledgeBaseId"], job["id"], body["outcome"],
                transient=bool(body.get("transient", False)), error=body.get("error"),
                compiler_version=body.get("compilerVersion"), error_code=body.get("errorCode"),
            )
        except (Conflict, NotFound) as exc:
            raise ResultRefused(str(exc)) from exc
        return job_json(j)

    def compile_options(self, claim: dict[str, Any]) -> dict[str, Any]:
        """The base's compile options (link style, extractor) and trust policy, from its stored policy."""
        from kctui.services.policy import _to_json, load_policy  # noqa: PLC0415

        policy, link_style, extractor = load_policy(self.ctx, claim["workspaceRoot"], claim["job"]["knowledgeBaseId"])
        return {"link_style": link_style, "extractor": extractor, "trust_policy": _to_json(policy, link_style, extractor)}

    def job_state(self, claim: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return job_json(jobs.get_job(self.ctx, claim["job"]["id"]))
        except NotFound:
            return None
