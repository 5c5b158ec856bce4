"""One row per route of the protocol: the Starlette route and its OpenAPI operation are both made from it
(kctui.api.server, kctui.api.openapi), so a route cannot be served undocumented or documented unserved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kctui.api.bodies import RequestBody
from kctui.api.handling import Handler

GETS = ("400", "401", "404", "413", "500")
POSTS = ("400", "401", "404", "409", "413", "500")


@dataclass(frozen=True)
class ApiRoute:
    """`path` is under the protocol's prefix; `answer` the shape of the envelope's `data` (a model, a tuple
    of models for "any of them", or None: the answer is the raw `OpenApiDocument`); `query`: the
    `workspace` query parameter, "required" or "optional"."""

    method: str
    path: str
    handler: Handler
    operation_id: str
    summary: str
    answer: Any
    body: type[RequestBody] | None = None
    body_required: bool = True
    query: str | None = None
    errors: tuple[str, ...] = POSTS
    description: str | None = None
