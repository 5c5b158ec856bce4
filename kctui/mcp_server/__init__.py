"""The MCP server of `kctui mcp` (issue 15): `server` registers the tools of `tools` on the SDK."""
