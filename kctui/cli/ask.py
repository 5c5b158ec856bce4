"""`kctui ask`: a cited answer from a knowledge base (a model's, verified, or extracted without one)."""

from __future__ import annotations

import sys

import click

from kctui.cli.common import open_services, print_json

EXIT_UNANSWERED = 3
DEFAULT_BUDGET = 16_384  # kctui.search.context.DEFAULT_BUDGET (not imported: the CLI stays light at import)


def print_answer(result: dict, streamed: bool) -> None:
    """The answer as a person reads it: how it was made, the text (unless it streamed already), the
    flags, then each citation with ✓ or ✗."""
    if streamed:
        click.echo("")  # the streamed answer's line ends
    if result["mode"] == "extractive":
        click.echo("Extracted, not written (no model configured): the base's best cited statements for the question.")
        from kctui.services.ask_cited import failing  # noqa: PLC0415

        if failing(result):
            click.echo("⚠ a citation (✗ below) is not held by its source lines now; do not take it as settled.")
    elif not result["verified"]:
        click.echo("⚠ UNVERIFIED: a citation does not hold what the answer states; do not take it as settled.")
    else:
        click.echo(f"✓ verified: every citation holds what the answer states ({result['model']})")
    if not streamed:
        click.echo(result["answer"])
    for f in result["flags"]:
        click.echo(f"⚠ {f['status'].upper()}: {f['page']} — {f['why']} (qualify what it says)")
    click.echo("")
    from kctui.services.ask_cited import mark, where  # noqa: PLC0415

    for c in result["citations"]:
        click.echo(f"[{c.get('ref') or c['item']}] {where(c)} {mark(c)}")
    if result["kept"]:
        click.echo(f"kept as {result['kept']}")


@click.command("ask")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("question")
@click.option("--budget", default=DEFAULT_BUDGET, show_default=True, type=int,
              help="Largest context packet in bytes (1,024–131,072).")
@click.option("--json", "as_json", is_flag=True,
              help="Print {question, answer, mode, citations, flags, packet_bytes, model, usage, kept} as JSON.")
@click.option("--keep", is_flag=True, help="Keep the answer as an output page under wiki/outputs/ (by promotion).")
def ask_cmd(workspace: str, kb_id: str, question: str, budget: int, as_json: bool, keep: bool) -> None:
    """Ask KB a QUESTION and get an answer citing the base.

    The context packet for the question (as `kctui context`) goes to the model the extractor uses
    (KCTUI_LLM_URL, KCTUI_LLM_MODEL, see docs/models.md) with a structured-output schema; the answer
    streams in and every citation is verified against the packet: an answer whose citations do not
    hold what it states is shown UNVERIFIED, and a flagged page (contradicted, needs review, stale) is
    flagged in the answer. With no model configured the answer is extractive: the best few cited
    statements of the packet, said to be extracted, not written. --keep writes the answer under
    wiki/outputs/ (never read back as evidence; marked stale in a later brief when what it cites
    changes). In the app: `i` on a base opens the ask screen (k keeps); over MCP: the `ask` tool. Exit 0
    when answered, 3 when nothing in the base answers, 1 on an error."""
    from kctui.services.ask import ask  # noqa: PLC0415

    streamed = [False]

    def on_text(text: str) -> None:  # the answer as it streams in (text mode, a model's answer)
        if as_json or not sys.stdout.isatty():
            return
        new = text[len(on_text.shown):] if text.startswith(on_text.shown) else ""
        if new:
            click.echo(new, nl=False)
            on_text.shown = text
            streamed[0] = True

    on_text.shown = ""  # type: ignore[attr-defined]
    result = ask(open_services(), workspace, kb_id, question, budget=budget, keep=keep, on_text=on_text)
    if as_json:
        print_json(result)
    elif result["unanswerable"]:
        click.echo(f"nothing in {kb_id} answers “{result['question']}”"
                   + (f": {result['answer']}" if result["answer"] else ""))
    else:
        print_answer(result, streamed[0] and result["mode"] == "model")
    if result["unanswerable"]:
        sys.exit(EXIT_UNANSWERED)
