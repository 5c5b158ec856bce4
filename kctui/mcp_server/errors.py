"""A tool error's text over MCP (QA session 30 #11): always `[code] …`, as mcp.md says.

The SDK words a failure `Error executing tool NAME: …` and an argument error as pydantic's multi-line
report (`1 validation error for get_knowledge_pageArguments …`). An agent reads the code first, so the
text is ours: a tool's own failure is its `[code] message` as the tool raised it; arguments that do not
fit the tool's schema are `[invalid_input]` with each problem named in one line and the arguments the
tool takes (`[invalid_input] get_knowledge_page: unknown argument 'slug'; argument 'page' is required;
get_knowledge_page takes knowledge_base, page, workspace`).
"""

from __future__ import annotations

import re
from typing import Any

_PREFIX = re.compile(r"^Error executing tool [^:]*:\s*")
_CODE = re.compile(r"^\[[a-z_]+\] ")
MAX_PROBLEMS = 3


def argument_problems(arguments: dict[str, Any], schema: dict[str, Any] | None,
                      errors: list[dict[str, Any]]) -> list[str]:
    """Each problem with the arguments, in words: unknown names first, then pydantic's errors by field."""
    known = list((schema or {}).get("properties") or {})
    out = [f"unknown argument '{k}'" for k in arguments if known and k not in known]
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc") or ()) or "arguments"
        if err.get("type") == "missing":
            line = f"argument '{where}' is required"
        elif err.get("type") in ("extra_forbidden", "unexpected_keyword_argument"):
            line = f"unknown argument '{where}'"
        else:
            line = f"argument '{where}': {str(err.get('msg') or 'invalid').rstrip('.')}"
        if line not in out:
            out.append(line)
    return out


def tool_error_text(name: str, message: str, *, arguments: dict[str, Any] | None = None,
                    schema: dict[str, Any] | None = None, errors: list[dict[str, Any]] | None = None) -> str:
    """The text of a tool error: `[code] …`, one line for an argument error (`errors`: pydantic's)."""
    if errors is not None:
        problems = argument_problems(arguments or {}, schema, errors)
        shown = problems[:MAX_PROBLEMS] + ([f"{len(problems) - MAX_PROBLEMS} more"] if len(problems) > MAX_PROBLEMS else [])
        takes = list((schema or {}).get("properties") or {})
        tail = f"; {name} takes {', '.join(takes)}" if takes else ""
        return f"[invalid_input] {name}: {'; '.join(shown) or 'the arguments do not fit the tool'}{tail}"
    text = _PREFIX.sub("", message.strip())
    if _CODE.match(text):
        return text
    code = "not_found" if text.lower().startswith("unknown tool") else "invalid_input"
    return f"[{code}] {text}"


__all__ = ["argument_problems", "tool_error_text"]
