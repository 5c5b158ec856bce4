"""The OpenAPI description of the ingest routes (issue 16), merged into `openapi_document()`."""

from __future__ import annotations

from typing import Any, Callable

INGEST_ERRORS = ("400", "401", "403", "404", "409", "413", "500")


def ingest_schemas(ref: Callable[[str], dict], string: Callable[..., dict], obj: Callable[..., dict],
                   max_name: int) -> dict[str, Any]:
    path_list = {"type": "array", "items": string()}
    return {
        "IngestBody": obj(
            {"workspace": ref("AbsolutePath"),
             "name": string(minLength=1, maxLength=max_name,
                            description="the file in sources/: a relative path (no '..', not absolute)"),
             "content": string(description="the file's text (UTF-8)")},
            {"replace": {"type": "boolean", "nullable": True, "description": "overwrite an existing file "
                                                                             "(default false: 409)"}}),
        "IngestPathBody": obj(
            {"workspace": ref("AbsolutePath"),
             "path": ref("AbsolutePath")},
            {"replace": {"type": "boolean", "nullable": True, "description": "overwrite existing files"}},
            description="A file or folder on this machine; a folder's contents are copied keeping its tree."),
        "IngestReport": obj(
            {"copied": path_list, "replaced": path_list,
             "skipped": {"type": "array", "items": obj({"path": string(), "reason": string()})}},
            description="Paths relative to sources/; every file skipped, with why (symlink, exists, too "
                        "large, vanished, ignored name)."),
    }


def ingest_paths_doc(one: str, kb: dict, operation: Callable[..., dict], ref: Callable[[str], dict]) -> dict[str, Any]:
    return {
        f"{one}/ingest": {
            "post": operation("ingest", "Add one source file from the body's content", ref("IngestReport"),
                              params=[kb], body="IngestBody", errors=INGEST_ERRORS,
                              description="Loopback clients only. 409 when the name exists (without "
                                          "replace), 400 on a name with '..', absolute or NUL."),
        },
        f"{one}/ingest-path": {
            "post": operation("ingestPath", "Copy a file or folder on this machine into sources/",
                              ref("IngestReport"), params=[kb], body="IngestPathBody", errors=INGEST_ERRORS,
                              description="Loopback clients only. Symlinks are never copied; when nothing "
                                          "could be added the answer is 409 (a name exists), 413 (too "
                                          "large) or 400."),
        },
    }
