"""A chat history compiled end to end (issue 30, conversations as a document shape): a valid wiki whose
citations hold, a person page per speaker with what they say of themselves, dated; an incremental pass
after a session is edited and one is added gives the same wiki as a full pass."""

from __future__ import annotations

from pathlib import Path

from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.wiki import check_wiki, pages, request, tree

SESSIONS = {
    "session-01.md": """# Session 1 — Monday 4 March 2024, 7:10 pm

Ana: Hi Tomek! Did you survive the move?

Tomek: Just about. I moved into the flat on Harbour Street yesterday and my back hurts.

Ana: Ha, I told you to hire a van. How big is it?

Tomek: Two bedrooms. My brother Piotr is staying in the spare room until June.

Ana: Nice. I'm going to visit you next month, if that's okay?

Tomek: Of course. We'll cook pierogi for you.
""",
    "session-02.md": """# Session 2 — Sunday 17 March 2024, 11:00 am

Tomek: Ana, big news. I started a pottery class last week.

Ana: You? Pottery? What happened to the guitar?

Tomek: The guitar is resting. I made a very wonky bowl for my mum.

Ana: I want one. I'll trade you a loaf of my sourdough.

Tomek: Deal. Piotr says my bowls look like ashtrays.

Ana: Piotr is wrong, tell him I said so.
""",
}
SESSION_3 = """# Session 3 — Saturday 6 April 2024, 9:15 pm

Ana: I'm on the train to see you! Arriving at eight.

Tomek: I'll be at the station. Piotr is making soup.

Ana: My bag is mostly sourdough, be warned.

Tomek: We have a spare shelf for it.

Ana: You're the best.

Tomek: I know. See you soon.
"""


def _base(tmp_path: Path) -> Path:
    src = tmp_path / "kb" / "sources"
    (src / "chat").mkdir(parents=True)
    for name, text in SESSIONS.items():
        (src / "chat" / name).write_text(text, encoding="utf-8")
    return src


def test_a_chat_compiles_to_speaker_pages_of_dated_statements(tmp_path: Path) -> None:
    src = _base(tmp_path)
    req = request(src, "job-1")
    compile_pass(req, cache_dir=None)
    check_wiki(req.output_path, src)
    found = pages(req.output_path)
    assert found["entities/tomek.md"][0]["entity_type"] == "person"
    assert found["entities/ana.md"][0]["entity_type"] == "person"
    tomek = found["entities/tomek.md"][1]
    assert "* **Tomek** (2024-03-04; yesterday = Sunday 3 March 2024) — said: I moved into the flat on Harbour " \
           "Street yesterday and my back hurts. ^[chat/session-01.md:L5-L5]" in tomek
    assert "* **Tomek** (2024-03-04) — said: My brother Piotr is staying in the spare room until June. " \
           "^[chat/session-01.md:L9-L9]" in tomek
    assert "* **Tomek** (2024-03-17; last week = 4 Mar–10 Mar 2024) — said: I started a pottery class last week. " \
           "^[chat/session-02.md:L3-L3]" in tomek
    ana = found["entities/ana.md"][1]
    assert "— plan: I'm going to visit you next month, if that's okay?" not in ana  # a question
    assert "* **Ana** (2024-03-17) — plan: I'll trade you a loaf of my sourdough. ^[chat/session-02.md:L9-L9]" in ana
    source = found["sources/chat-session-01-md.md"][1]
    assert "* **Ana** — said: Hi Tomek! Did you survive the move? ^[chat/session-01.md:L3-L3]" in source
    assert not any(p.startswith("concepts/") for p in found)


def test_incremental_equals_full_on_a_chat(tmp_path: Path) -> None:
    src = _base(tmp_path)
    cache = tmp_path / "cache"
    first = request(src, "job-1")
    compile_pass(first, cache_dir=cache)
    (src / "chat" / "session-02.md").write_text(SESSIONS["session-02.md"].replace("wonky bowl", "wonky vase"),
                                                encoding="utf-8")
    (src / "chat" / "session-03.md").write_text(SESSION_3, encoding="utf-8")
    trees = []
    for job, kw in {"inc": {"cache_dir": cache}, "full": {"cache_dir": None, "full": True}}.items():
        req = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z", out=job)
        compile_pass(req, **kw)
        check_wiki(req.output_path, src)
        trees.append(tree(req.output_path))
    assert trees[0] == trees[1]
    page = trees[0]["entities/tomek.md"].decode()
    assert "— said: I made a very wonky vase for my mum. ^[chat/session-02.md:L7-L7]" in page
    assert "revised Tomek (2024-03-17) said: I made a very wonky bowl for my mum. → I made a very wonky vase" in page
    assert "* **Ana** (2024-04-06) — said: My bag is mostly sourdough, be warned." in trees[0]["entities/ana.md"].decode()
