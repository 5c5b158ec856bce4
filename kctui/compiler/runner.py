"""The compiler seam: one claimed job in, one staged tree under `output_path` out.

Everything that compiles (the app's built-in worker, `kctui compile --wait`, `kctui worker`) calls
`compile_job`. It reads only `source_path` (and `previous_wiki_path` as reference), writes only under
`output_path`, and reports progress through a callback. Failures are `CompileFailure` with a code from
the closed set of `kctui.core.failures`; a stop request raises `CompileCancelled`. The contract types
live in `kctui.compiler.contract`; they are re-exported here for the hosts that call `compile_job`.
"""

from __future__ import annotations

from kctui.compiler.contract import (  # noqa: F401 - re-exported: the seam's request, report and errors
    COMPILER_NAME,
    CompileCancelled,
    CompileFailure,
    CompileReport,
    CompileRequest,
    ProgressEvent,
    ProgressFn,
    StopFn,
)


def compile_job(
    request: CompileRequest,
    *,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> CompileReport:
    # loaded on the first compile, not when a host imports the seam: the pipeline (readers, extractors,
    # the trust step) costs a few hundred milliseconds to import, and nothing in it imports this module
    from kctui.compiler.steps import pipeline  # noqa: PLC0415

    result = pipeline.compile_pass(request, progress=progress or (lambda e: None), should_stop=should_stop or (lambda: False))
    return result.report
