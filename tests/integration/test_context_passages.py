"""The raw layer of a context packet follows `sources/` as it is at the query (kctui.search.passage_index):
a changed file's passages are read again, a removed file's are gone, a hidden file or a symlink is never
read; a chat's turns are quoted with their lines and their session's date, relative times resolved."""

from __future__ import annotations

import json
import os

from kctui import paths
from kctui.search.packet_items import full_item, kind_of
from kctui.services import search as svc_search
from tests.helpers import make_base
from tests.helpers.packets import passages


def _quoted(svc, workspace, kb: str, query: str) -> dict[str, list]:
    pkt = json.loads(svc_search.context(svc, workspace, kb, query, budget=4096, fmt="json"))
    return {i["source"]: passages(i) for i in map(full_item, pkt["items"]) if kind_of(i) == "evidence"}


def test_the_raw_layer_is_the_sources_as_they_are_now(svc, workspace, tmp_path):
    base = make_base(svc, workspace, "Raw", {"n.md": "# N\n\nThe numbat eats termites.\n"})
    sources = paths.sources_path(workspace, base.id)
    assert [p["lines"] for p in _quoted(svc, workspace, base.id, "numbat")["n.md"]] == [[3, 3]]
    (sources / "n.md").write_text("# N\n\nA first line.\n\nThe numbat now eats ants as well.\n", encoding="utf-8")
    got = _quoted(svc, workspace, base.id, "numbat")["n.md"]
    assert ([5, 5], True) in [(p["lines"], "ants" in p["text"]) for p in got]  # split again: the new lines
    assert not any("termites" in p["text"] for p in got)  # and nothing of the old text
    (sources / ".hidden.md").write_text("The numbat hides here.\n", encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("The numbat lives outside.\n", encoding="utf-8")
    os.symlink(outside, sources / "link.md")
    (sources / "n.md").unlink()
    assert _quoted(svc, workspace, base.id, "numbat") == {}  # gone, and never read through a link or a dot


def test_a_chat_turn_is_quoted_with_its_session_date_and_its_relative_time(svc, workspace):
    chat = ("# Session 4 — 7:10 pm on 5 March, 2024\n\nAudrey: I adopted a puppy yesterday!\n\n"
            "Bo: What's its name?\n\nAudrey: Biscuit.\n")
    base = make_base(svc, workspace, "Chat", {"chat.md": chat})
    text = svc_search.context(svc, workspace, base.id, "adopted puppy", budget=2048, fmt="text")
    assert "## EVIDENCE chat.md — Session 4 — 7:10 pm on 5 March, 2024" in text
    assert "L3: Audrey: I adopted a puppy yesterday! (yesterday = Monday 4 March 2024)" in text


def test_a_passage_that_calls_a_person_by_another_name_is_found_by_their_name(svc, workspace):
    from tests.helpers.answers import compiled_base

    chat = ("# Session 1 — 2:05 pm on 5 March, 2024\n\nAna: Hey Ben! How was the weekend?\n\n"
            "Benedict: Good thanks. I adopted a puppy last week, a terrier called Pixel.\n\n"
            "Ana: Ha. I'll be in Lisbon next month for a conference, actually.\n\n"
            "Benedict: Then you have to meet my sister. We're going to visit in June too.\n\n"
            "## 12 March 2024 (Tuesday)\n\nAna: Ben, did Pixel sleep at all?\n\n"
            "Benedict: Barely. I took him to the vet yesterday for his jabs.\n\n"
            "Ana: Poor thing. I'm so sorry, that sounds exhausting.\n\n"
            "Benedict: It's fine. Honestly, I think we'll survive.\n")
    kb = compiled_base(svc, workspace, {"chat.md": chat})
    from kctui.search.index import base_key
    from kctui.services.search import prepare

    _base, index, key, _ = prepare(svc, workspace, kb)
    assert index.names(key, ["benedict"]) == [("Benedict", ["Ben"])]  # the speaker's short form is his alias
    assert index.names(key, ["ben"]) == [("Benedict", ["Ben"])]
    assert key == base_key(str(workspace), kb)
    from kctui.search.passage_index import rank_passages, refresh_passages
    from kctui.services.search import _other_names

    assert _other_names(index, key, {"benedict"}) == ["benedict", "ben"]  # what the raw passages are ranked by
    refresh_passages(index, key, paths.sources_path(workspace, kb))
    assert [p.start for p in rank_passages(index, key, '"ben"', 5)][:2] in ([3, 13], [13, 3])  # the turns that say "Ben"
