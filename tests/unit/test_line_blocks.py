"""A paragraph of short lines, each its own (a signature, an address, abbreviations defined one a line): read
line by line, so no name runs on across a line's end, and a signature's lines are its first line's."""

import pytest

from kctui.compiler.builtin.sentences import line_block, sentences, units
from kctui.compiler.builtin.statements import section_leads
from kctui.compiler.readers import Block
from kctui.compiler.readers.source import read_source


def block(*lines: str) -> Block:
    return Block("paragraph", 10, 9 + len(lines), "\n".join(lines), tuple(range(10, 10 + len(lines))))


@pytest.mark.parametrize(("lines", "expected"), [
    (("--", "Dan Okafor", "Practice Systems Lead, Fernside Veterinary Group", "07700 900 318"), True),
    (("*[CA]: Community Availability", "*[LTS]: Long-Term Support"), True),
    (("Thanks", "Dan"), True),
    (("We moved the standup to 10:00 because the", "Sydney folks could not make it"), False),  # runs on: "the"
    (("we met", "and then left"), False),  # the next line opens lower-case
    (("The release went out.", "Nobody noticed."), False),  # sentences: split as sentences are
    (("**Lena Marsh** 10:06", "APN 114-220-031"), False),  # a thread's speaker over her message
    (("Dan Okafor",), False),  # one line
    (("A line that is far too long to be a line of a signature or an address", "Dan"), False),
    # a pasted chat: each line a stamped message, however long
    (("[09:41] Tomasz Wren: heads up, deploy freeze starts 18 December and ends 4 January",
      "[09:46] Maya Okafor: nice. I'll close JIRA PLAT-2210"), True),
    (("14:02 - Ana: the IRSA change is done on staging, going to prod on Tuesday",
      "14:05 - Dmitri: nice, that was quick."), True),
    (("[09:41] Tomasz Wren: heads up, deploy freeze starts 18 December and ends 4 January",
      "and the NATS cutover has to land before the 17th, which is tight for everyone"), False),  # runs on
    # the speaker first, in bold or not, then the time (QA session 30: a Slack thread pasted as it copies)
    (("**Marta Kowalski** 09:20: yes, Twilio retries after 15 seconds and our handler is not idempotent",
      "**Aisha Bello** 09:31: ok let's add an idempotency key on the refund notification. Marta can you take it?"), True),
    (("Tom 9:02 AM - the IRSA change is done on staging, going to prod on Tuesday",
      "Ana 9:05 AM - nice, that was quick and nothing broke on the way there"), True),
    (("**Marta Kowalski** 09:20: yes, Twilio retries after 15 seconds and our handler is not idempotent",
      "and the NATS cutover has to land before the 17th, which is tight for everyone"), False),  # runs on
])
def test_a_line_block_is_short_lines_each_its_own(lines, expected):
    assert line_block(block(*lines)) is expected


SIGNED = """# Merchant rate review

If you can get to 1.2% we'll sign for 12 months.

--
Dan Okafor
Practice Systems Lead, Fernside Veterinary Group
07700 900 318
"""


def test_a_signature_is_read_line_by_line_and_its_lines_are_its_signers():
    doc = read_source("mail.md", SIGNED.encode(), "sha256:x")
    texts = [(u.plain, u.first, u.last) for u in units(doc)]
    assert ("Dan Okafor", 6, 6) in texts
    assert ("Practice Systems Lead, Fernside Veterinary Group", 7, 7) in texts  # no "Okafor Practice Systems Lead"
    assert ("07700 900 318", 8, 8) in texts
    leads = section_leads(doc)
    assert leads.get(7) == leads.get(8) == "Dan Okafor"
    assert 6 not in leads and 3 not in leads


PASTED = """# #platform channel, pasted 2 December 2026

[09:41] Tomasz Wren: heads up, deploy freeze starts 18 December and ends 4 January
[09:46] Maya Okafor: nice. I'll close JIRA PLAT-2210
"""


def test_a_pasted_chats_lines_are_each_its_own_so_a_message_is_its_speakers():
    doc = read_source("paste.md", PASTED.encode(), "sha256:x")
    texts = [(u.plain, u.first, u.last) for u in units(doc)]
    assert ("[09:46] Maya Okafor: nice. I'll close JIRA PLAT-2210", 4, 4) in texts
    assert not any(first == 3 and last == 4 for _t, first, last in texts)  # no statement across two speakers


@pytest.mark.parametrize(("lines", "expected"), [
    # a pasted thread with no blank line between turns: each turn head on its own line starts a sentence, its
    # message below it (not four speakers' lines in one statement)
    (("**Rav Sandhu** 10:02", "morning all. news from the vendor: an engineer on site for the whole season",
      "**Ellie Marsh** 10:11", "honestly the pickers love them", "Tom Ashworth 10:20 AM", "the bridge is a single node"),
     [(10, 11), (12, 13), (14, 15)]),
    (("**Ken** 13:48", "no rc, no ship", "**Marta** [13:50]", "ok"), [(10, 11), (12, 13)]),
    (("**Ops**", "we moved the window", "**Dev**", "fine by me"), [(10, 11), (12, 13)]),  # a bold name alone
    # a line of prose that runs on into a time of day is no turn head
    (("We met at the office and agreed that the", "Meeting 10:00"), [(10, 11)]),
    (("the cutover moves to", "Sat 10:00"), [(10, 11)]),
])
def test_a_turn_head_on_its_own_line_starts_its_turn(lines: tuple[str, ...], expected: list) -> None:
    assert [(first, last) for _text, first, last in sentences(block(*lines))] == expected
