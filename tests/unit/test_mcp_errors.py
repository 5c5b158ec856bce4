"""QA session 30 #11: a tool error's text over MCP starts with its code (kctui.mcp_server.errors)."""

from __future__ import annotations

import pytest

from kctui.mcp_server.errors import tool_error_text

SCHEMA = {"properties": {"knowledge_base": {}, "page": {}, "workspace": {}}, "required": ["knowledge_base", "page"]}


@pytest.mark.parametrize("arguments, errors, text", [
    ({"knowledge_base": "kb", "slug": "x"}, [{"type": "missing", "loc": ("page",), "msg": "Field required"}],
     "[invalid_input] get_knowledge_page: unknown argument 'slug'; argument 'page' is required; "
     "get_knowledge_page takes knowledge_base, page, workspace"),
    ({"knowledge_base": "kb", "page": 3}, [{"type": "string_type", "loc": ("page",), "msg": "Input should be a valid string"}],
     "[invalid_input] get_knowledge_page: argument 'page': Input should be a valid string; "
     "get_knowledge_page takes knowledge_base, page, workspace"),
    ({"a": 1, "b": 2, "c": 3, "d": 4}, [],
     "[invalid_input] get_knowledge_page: unknown argument 'a'; unknown argument 'b'; unknown argument 'c'; 1 more; "
     "get_knowledge_page takes knowledge_base, page, workspace"),
])
def test_an_argument_error_is_one_invalid_input_line(arguments, errors, text) -> None:
    assert tool_error_text("get_knowledge_page", "ignored", arguments=arguments, schema=SCHEMA, errors=errors) == text


@pytest.mark.parametrize("message, text", [
    ("Error executing tool resolve_conflict: [conflict] the page moved on", "[conflict] the page moved on"),
    ("[not_found] no review item 9", "[not_found] no review item 9"),
    ("Unknown tool: frobnicate", "[not_found] Unknown tool: frobnicate"),
    ("Error executing tool ask: something odd", "[invalid_input] something odd"),
])
def test_a_tool_failure_keeps_its_code_without_the_sdk_prefix(message, text) -> None:
    assert tool_error_text("x", message) == text


def test_docs_name_every_tools_arguments() -> None:
    """docs/mcp.md's table of arguments names each argument of each tool, the required ones in bold."""
    import asyncio  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    from kctui.mcp_server.server import build_server  # noqa: PLC0415
    from kctui.mcp_server.tools import Tools  # noqa: PLC0415

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    rows = {ln.split("|")[1].strip().strip("`"): ln for ln in doc.split("## Their arguments", 1)[1].splitlines()
            if ln.startswith("| `")}
    for tool in asyncio.run(build_server(Tools([])).list_tools()):
        required = set(tool.input_schema.get("required") or [])
        for name in tool.input_schema.get("properties") or {}:
            shown = f"**`{name}`**" if name in required else f"`{name}`"
            assert shown in rows[tool.name], (tool.name, name)
