"""The brief step: the staged wiki written out with its manifest, what this pass wrote kept for the next
one, and the pass's brief and report (kctui.compiler.steps.brief_files writes `brief.md` and `review.json`)."""

from __future__ import annotations

from kctui.compiler.contract import CompileReport
from kctui.compiler.previous.store import WrittenGeneration
from kctui.compiler.steps import brief_files, skipped_memo
from kctui.compiler.steps.outputs import carry_outputs
from kctui.compiler.steps.pass_result import PassResult
from kctui.compiler.steps.results import Extracted, Flagged, Gathered, Matched, PassRun, Updated
from kctui.compiler.trust.gate import manifest_extras


def brief(run: PassRun, gathered: Gathered, extracted: Extracted, matched: Matched, updated: Updated,
          flagged: Flagged) -> PassResult:
    request, steps, writer, gate = run.request, run.steps, updated.writer, updated.gate
    final, extractor = flagged.final, gathered.extractor
    steps.start("brief", len(final) + 2)
    warnings = gathered.warnings + updated.warnings
    keys = skipped_memo.keys_of(matched.skipped, {p: f.digest for p, f in gathered.by_path.items()})
    skipped, skipped_before = skipped_memo.split_reported(  # reported once, then not until they change
        matched.skipped, keys, skipped_memo.read_reported(run.cache_folder, gathered.prev.log_text or ""))
    for s in matched.skipped:  # all of them: the wiki's log counts the same with or without the record
        warnings.append(f"{s.path}: skipped ({s.reason}{': ' + s.detail if s.detail else ''})")
    for ex in matched.live.values():
        warnings += [f"{ex.path}: {w}" for w in ex.warnings]
    result = PassResult(
        report=CompileReport(compiler_version=gathered.version),
        changes=skipped_memo.not_added(matched.changes, matched.skipped),
        updates=updated.updates,
        claim_changes=updated.claim_changes,
        conflicts=flagged.conflicts,
        skipped=sorted(skipped, key=lambda s: s.path),
        skipped_before=skipped_before,
        files_extracted=(len(extracted.to_read) + len(matched.reread) + len(extracted.again)
                         - len(extracted.reread) - extractor.cache_hits()),
        cache_hits=extractor.cache_hits(),
        held=list(gate.held),
        stale=flagged.stale,
        review_items=list(gate.items),
        reread=sorted(matched.reread, key=lambda p: p.encode()),
    )
    writer.write_all(final, updated.updates, flagged.conflicts, warnings, steps.check, held=len(gate.held), tick=steps.tick)
    result.outputs_stale = carry_outputs(request)  # kept answers: carried, never evidence; stale when their citations moved
    brief_files.write_manifest(request.output_path, gate.items if gate.gated else None, manifest_extras(gate))
    infos = {slug: writer.infos[slug] for slug in final if slug in writer.infos}
    run.store.save(WrittenGeneration(infos, writer.digests, writer.files, writer.styles,
                                     links_resolve=not flagged.dropped_links and len(infos) == len(final)))
    if not run.dry_run:
        skipped_memo.write_reported(run.cache_folder, request.job_id, keys)
    steps.done(len(final) + 2)
    data = brief_files.brief_data(request, gathered.version, result, matched.live, flagged.dropped_links, warnings,
                                  steps.timings)
    data.model_usage = extractor.usage()
    result.report.brief_markdown = brief_files.write_brief(request.output_path, data)
    result.report.pages_written = len(final) + 2
    result.report.files_read = result.files_extracted
    result.report.warnings = warnings
    return result
