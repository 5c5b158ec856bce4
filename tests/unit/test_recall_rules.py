"""Issue 31: a stated fact reaches the page of what it is about, by the sentence's structure, not its
phrasing. Each rule has a positive and a negative table, with phrasings of our own (not the notes
corpus's): a value next to a name or stated of a sentence's subject gives it a page on one mention, with
the value read by its form; a table row is a statement of each thing it names; a record titled by an
identifier ("ADR-12: …") carries its header's fields; units, days and a name's tail are no names."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import stated_values
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract(text).entities}


def claims_of(text: str, name: str) -> list[tuple[str, str, int]]:
    return [(c.attribute, c.value, c.evidence.start) for c in extract(text).claims if c.subject == name]


# -- a value stated of a name gives it a page on one mention --------------------------------------------


@pytest.mark.parametrize("text, name, kind, value", [
    ("# Infra notes\n\nThe batch hosts were moved to Nomad 1.7 last month after the quota review.\n",
     "Nomad", "version", "1.7"),
    ("# Renewals\n\nOur Zuora subscription ends on 2027-01-15, after which invoices stop.\n",
     "Zuora", "date", "2027-01-15"),
    ("# Budget\n\nGrafterly costs us $4,300 a month for the whole analytics team.\n",
     "Grafterly", "amount", "$4,300"),
    ("# Weekly\n\n- Quokkabase restores take about 35 minutes from a cold snapshot.\n",
     "Quokkabase", "duration", "35 minutes"),
])
def test_a_value_stated_of_a_name_gives_it_a_page_with_the_value_read_by_its_form(text, name, kind, value):
    ex = extract(text)
    assert name in {e.name for e in ex.entities}
    mine = [(c.attribute, c.value) for c in ex.claims if c.subject == name]
    assert (kind, value) in mine
    assert any(c.attribute == "note" and value in c.value for c in ex.claims if c.subject == name)


@pytest.mark.parametrize("text, name", [
    # a bare passing mention stays on the source page
    ("# Retro\n\nSomeone mentioned Quokkabase in passing while we talked about lunch.\n", "Quokkabase"),
    # a number that is no value of the name (a count elsewhere in the sentence, the name not its subject)
    ("# Retro\n\nWe reviewed 14 tickets, and then argued about Grafterly and the coffee machine.\n", "Grafterly"),
])
def test_a_bare_mention_gets_no_page(text, name):
    assert name not in entity_names(text)


@pytest.mark.parametrize("plain, kind, value", [
    ("Nomad 1.7 is on every host", "version", "1.7"),
    ("Zuora renews Tue 9 Mar 2027 again", "date", "Tue 9 Mar 2027"),
    ("Zuora renews 31 Jan 2027, 12 seats at $100/seat", "date", "31 Jan 2027"),  # a year and a comma end it
    ("Zuora renews Jan 31, 2027, then stops", "date", "Jan 31, 2027"),
    ("Quokkabase uses 12% of the disk", "share", "12%"),
    ("Quokkabase took 3h on Friday", "duration", "3h"),
    ("Quokkabase timed out after 450s", "duration", "450s"),  # no HTTP status: seconds
    ("Quokkabase timed out after 300s", "duration", "300s"),  # a redirect's code is no error: seconds
    ("Quokkabase moved to 10.20.4.15 on Friday", "address", "10.20.4.15"),  # four numbers to 255: an address
    ("Quokkabase subnet 10.40.70.0/24, pre-staged", "address", "10.40.70.0/24"),
])
def test_stated_value_kinds(plain, kind, value):
    span = nm.Span(plain.split()[0], 0, len(plain.split()[0]), True, "caps", (plain.split()[0],))
    assert stated_values.stated_value(plain, span) == (kind, value)


@pytest.mark.parametrize("plain, kind, value", [
    ("moved onto Harbor (harbor.int:443) today", "port", "443"),  # a host's number after a colon: its port
    ("the primary is db-prod-02:5432 now", None, None),  # (one token with the name's own digits: no value)
    ("we pin postgres:16 in the compose file", "version", "16"),  # an image's tag after a bare name: its version
])
def test_a_number_after_a_colon_is_a_hosts_port_or_an_images_tag(plain, kind, value):
    name = plain.split(":")[0].split()[-1].lstrip("(")
    at = plain.index(name)
    span = nm.Span(name, at, at + len(name), False, "shaped", (name,))
    assert stated_values.stated_value(plain, span) == ((kind, value) if kind else None)


@pytest.mark.parametrize("plain, other, found", [
    # another name opening a clause between the subject and the value takes the value
    ("Quokkabase migration is done, Zuora contract ends 31 Dec 2026", "Zuora", None),
    ("Quokkabase is retired; the Zuora plan renews on 2027-01-15", "Zuora", None),
    # a verb of saying or thinking opens the clause that states the value
    ("Quokkabase estimates the Zuora box costs ~$210/month", "Zuora", None),
    ("Quokkabase said that Zuora renews on 2027-01-15", "Zuora", None),
    # a dash after a topic heads its statement; a clause that ends before the value keeps it the subject's
    ("Quokkabase licence – Zuora got them down to £17,450/yr", "Zuora", ("amount", "£17,450/yr")),
    ("Quokkabase licences, Zuora. ~£9k/yr", "Zuora", ("amount", "~£9k/yr")),
    # a name inside the subject's own clause leaves the value with the subject
    ("Quokkabase, which Zuora bought, renews on 2027-01-15", "Zuora", ("date", "2027-01-15")),
    ("Quokkabase on Zuora renews on 2027-01-15", "Zuora", ("date", "2027-01-15")),
])
def test_a_value_after_another_clause_is_not_the_subjects(plain, other, found):
    span = nm.Span("Quokkabase", 0, 10, True, "caps", ("Quokkabase",))
    at = plain.index(other)
    assert stated_values.stated_value(plain, span, [(at, at + len(other))]) == found


@pytest.mark.parametrize("plain, found", [
    # the version a rollback goes back to is no version the thing runs now (QA session 29)
    ("Roll back to Quokkabase 2.2.9 with helm rollback.", ("rollback target", "2.2.9")),
    ("If the deploy breaks, revert to Quokkabase 15 and page on-call", ("rollback target", "15")),
    ("we rolled back to Quokkabase 4.1 last night", ("rollback target", "4.1")),
    ("Quokkabase 2.3.1 on all nodes since the roll-out", ("version", "2.3.1")),
    ("Rolled back the cache. Quokkabase 3.0 is live", ("version", "3.0")),  # (another sentence's rollback)
])
def test_a_rollback_target_is_not_the_version_now(plain, found):
    at = plain.index("Quokkabase")
    span = nm.Span("Quokkabase", at, at + 10, True, "caps", ("Quokkabase",))
    assert stated_values.stated_value(plain, span) == found


@pytest.mark.parametrize("plain", [
    "Quokkabase was discussed at 10:30 by the team",  # a time of day says nothing of its form
    "Quokkabase and 3 others were discussed",  # a count
    "Quokkabase depot stores the spares for all VR-220s",  # a model's number in the plural is no 220 seconds
    "Quokkabase webhook returns 502s",  # an HTTP error status in the plural counts responses, no seconds
    "Quokkabase throttled us with 429s all morning",
])
def test_no_stated_value_without_a_form(plain):
    span = nm.Span("Quokkabase", 0, 10, True, "caps", ("Quokkabase",))
    assert stated_values.stated_value(plain, span) is None


# -- not names: units, days, the tail of a longer name --------------------------------------------------


@pytest.mark.parametrize("text, not_a_name", [
    ("# Bench\n\nThe Quokkabase node drew 340 mW at idle and 2 kW at peak, says Ilse Vandermeer.\n", "mW"),
    ("# Bench\n\nThe Quokkabase node drew 340 mW at idle and 2 kW at peak, says Ilse Vandermeer.\n", "kW"),
    ("# Plan\n\n- Quokkabase 2.1 ships Thurs, then Zuora 4.0 on Weds.\n- Quokkabase 2.2 follows on Thurs.\n",
     "Thurs"),
    ("# Chat\n\n**Ilse Vandermeer** [09:12] Quokkabase 2.1 is out\n\n**Ilse Vandermeer** [09:14] and 2.2 next week\n",
     "Vandermeer"),
])
def test_units_days_and_name_tails_are_no_names(text, not_a_name):
    assert not_a_name not in entity_names(text)


# -- a table row is a statement of each thing it names ---------------------------------------------------


def test_a_table_row_is_cited_on_the_page_of_the_thing_it_names():
    text = ("# Inventory\n\n| Host | Role | Since |\n|---|---|---|\n"
            "| Quokkabase 2.1 | primary store | 2025-04-02 |\n| Zuora | billing | 2024-11-30 |\n")
    ex = extract(text)
    assert "Quokkabase" in {e.name for e in ex.entities}
    assert any(c.evidence.start == 5 and "2025-04-02" in c.value for c in ex.claims if c.subject == "Quokkabase")


def test_a_row_under_a_typed_column_is_a_name_however_common_its_word():
    text = ("# Tools we pay for\n\n| Vendor | Use | Renews |\n|---|---|---|\n| Quokkabase | storage | 2026-04-01 |\n"
            "| Sunrise | calendars | 2026-05-01 |\n| hexplane | diagrams | 2026-06-01 |\n")
    names = entity_names(text)
    assert {"Sunrise", "hexplane"} <= names


# -- records titled by an identifier ---------------------------------------------------------------------


def test_a_record_titled_by_an_identifier_carries_its_header():
    text = ("# DR-12: Keep invoices in Zuora\n\n- **State:** Superseded by DR-19\n- **Recorded:** 4 May 2025\n\n"
            "## Why\n\nThe finance team asked for it.\n")
    ex = extract(text)
    assert "DR-12" in {e.name for e in ex.entities}
    mine = claims_of(text, "DR-12")
    assert any("Superseded by DR-19" in v and line == 3 for _, v, line in mine)
    assert any("4 May 2025" in v and line == 4 for _, v, line in mine)


@pytest.mark.parametrize("title", ["# Notes from the 12 May sync", "# Quokkabase 2.1 release notes",
                                   "# Step-by-step: moving hosts"])
def test_a_title_without_an_identifier_is_no_record(title):
    from kctui.compiler.builtin import records
    from kctui.compiler.readers import read_source as rs

    assert records.record_name(rs("n.md", f"{title}\n\nText.\n".encode(), DIGEST)) == ""


# -- what a sentence that names nothing is about, by its place --------------------------------------------


def test_a_sentence_opening_with_a_pronoun_is_about_the_subject_before():
    text = ("# Storage\n\nQuokkabase keeps the thumbnails for the shop. It holds about 3 TB today and grows "
            "with every sale.\n\nQuokkabase replaced an older store last year.\n")
    assert any(c.evidence.start == 3 and "3 TB" in c.value for c in extract(text).claims if c.subject == "Quokkabase")


def test_list_items_under_a_lead_in_are_about_the_thing_it_names():
    text = ("# Call notes\n\nSpoke to Quokkabase sales today. Their offer:\n\n- 3-year term at $9,000 a year\n"
            "- support included\n\nQuokkabase also sent a quote for the add-on.\n")
    mine = [(c.evidence.start, c.value) for c in extract(text).claims if c.subject == "Quokkabase"]
    assert any(line == 5 and "$9,000" in value for line, value in mine)
    assert not any(line == 6 for line, _ in mine)  # no value: the item stays on the source page


def test_a_word_in_lower_case_before_a_release_number_is_a_name():
    text = "# Ops\n\n- upgraded quokkadb to 4.2.1 on the batch hosts\n- quokkadb 4.2.1 needs a restart weekly\n"
    assert "quokkadb" in entity_names(text)


@pytest.mark.parametrize("text, name, wanted", [
    # an identifier whose first part is a participle is a name; English compound modifiers end in one
    ("# Standup\n\n- billing-relay restarted at 02:00 after the 2026-02-02 deploy\n"
     "- billing-relay lag back under 5s\n", "billing-relay", True),
    ("# Standup\n\n- moving-ledger restarted at 02:00 after the 2026-02-02 deploy\n"
     "- moving-ledger lag back under 5s\n", "moving-ledger", True),
    ("# Standup\n\n- the job is long-running since 2026-02-02, 4h so far\n"
     "- another long-running job since 2026-02-03, 2h so far\n", "long-running", False),
])
def test_identifier_shapes(text, name, wanted):
    assert (name in entity_names(text)) is wanted


def test_a_bold_label_with_names_as_its_value_is_a_field_not_a_term():
    text = ("# DR-3: Pick a queue\n\n- **Reviewers:** Ilse Vandermeer (infra), Bo Quaranta (data)\n\n"
            "## Context\n\nWe need a queue.\n")
    assert "Reviewers" not in entity_names(text)


@pytest.mark.parametrize("text, older, newer", [
    ("# DR-12: Keep invoices in Zuora\n\nState: Superseded by DR-19 on review day.\n\n## Why\n\nFinance asked.\n",
     "DR-12", "DR-19"),
    ("# DR-19: Move invoices to Quokkabase\n\n*Signed off 3 May 2026; supersedes DR-12*\n\n## Why\n\nCost.\n",
     "DR-12", "DR-19"),
])
def test_supersession_links_both_records(text, older, newer):
    ex = extract(text)
    assert {older, newer} <= {e.name for e in ex.entities}
    links = {(c.subject, c.attribute, c.value) for c in ex.claims}
    assert (older, "superseded by", newer) in links
    assert (newer, "supersedes", older) in links


def test_a_records_title_states_its_decision_on_the_record_and_the_thing_chosen():
    text = ("# DR-7: Quokkabase for the thumbnail store\n\n- **State:** accepted\n\n## Context\n\n"
            "Quokkabase 2.1 was the only option with tiering.\n")
    decisions = {(c.subject, c.value) for c in extract(text).claims if c.attribute == "decision"}
    assert ("DR-7", "Quokkabase for the thumbnail store") in decisions
    assert ("Quokkabase", "Quokkabase for the thumbnail store") in decisions


def test_a_typed_field_declares_a_name_the_document_then_writes_in_lower_case():
    text = ("# Runbook: relay lag\n\n**Service:** quokkarelay (Go 1.22, on two hosts)\n\n"
            "quokkarelay reads from the broker and writes to the store.\n\n- restart quokkarelay if lag > 5m\n")
    ex = extract(text)
    assert "quokkarelay" in {e.name for e in ex.entities}
    lines = {c.evidence.start for c in ex.claims if c.subject == "quokkarelay"}
    assert {3, 5} <= lines
    # a version right after another word is that word's, not the subject's
    assert not any(c.attribute == "version" for c in ex.claims if c.subject == "quokkarelay")


@pytest.mark.parametrize("key", ["Owner", "Status", "Note"])
def test_a_field_whose_key_is_no_kind_of_thing_declares_nothing(key):
    from kctui.compiler.builtin import fields

    doc = read_source("n.md", f"# X\n\n**{key}:** quokkarelay (since May)\n".encode(), DIGEST)
    assert fields.typed_names(doc) == ()


def test_the_one_name_a_label_line_gives_gets_the_label_as_its_role():
    text = "# Handover\n\nThe queue drained overnight. On-call this week: Ilsabet.\n"
    ex = extract(text)
    assert "Ilsabet" in {e.name for e in ex.entities}
    assert ("role", "On-call this week") in {(c.attribute, c.value) for c in ex.claims if c.subject == "Ilsabet"}


def test_an_email_header_names_its_writer_without_a_role():
    ex = extract("From: Hannah Quillfeather\nTo: IT\nCc: Ravi Oyelaran-Smythe\nSubject: go-live moved\n\n"
                 "Porting got pushed to 18 Jan, Ravi Oyelaran-Smythe knows.\n\nThanks,\nHannah Quillfeather\n")
    assert {"Hannah Quillfeather", "Ravi Oyelaran-Smythe"} <= {e.name for e in ex.entities}
    assert not any(c.attribute == "role" and c.value in ("From", "Cc") for c in ex.claims)


@pytest.mark.parametrize("line", ["Status: Superseded by DR-4.", "Severity: SEV-2", "Subject: QRX 2 review, notes"])
def test_a_label_line_with_more_than_a_name_gives_no_role(line):
    assert not any(c.attribute == "role" for c in extract(f"# Notes\n\n{line}\n").claims)


def test_a_decision_makes_the_chosen_thing_a_page_with_its_reason_and_alternative():
    text = ("# 7. Queue for the jobs\n\nWe chose Quokka Streams over Zorbamq because the team already runs "
            "Quokka 7.2.\n")
    ex = extract(text)
    assert "Quokka Streams" in {e.name for e in ex.entities}
    mine = {(c.attribute, c.value) for c in ex.claims if c.subject == "Quokka Streams"}
    assert ("reason", "the team already runs Quokka 7.2") in mine
    assert ("alternative", "Zorbamq") in mine


@pytest.mark.parametrize("item, owner", [
    ("- **Quokkabase** — hosted in Oslo, syncs with Wombatly and Numbatix. £410/month on the team plan.", "Quokkabase"),
    ("- **Quokkabase** syncs with Wombatly. Wombatly costs £12/month.", "Wombatly"),  # named in its own sentence
    ("- Wombatly and Quokkabase both sync; Quokkabase costs $9/month.", "Quokkabase"),
])
def test_a_price_belongs_to_the_name_of_its_own_sentence_else_to_what_the_item_is_about(item, owner):
    text = f"# Tools\n\nWe use Quokkabase, Wombatly and Numbatix.\n\n{item}\n"
    ex = extract(text)
    assert {c.subject for c in ex.claims if c.attribute == "price"} == {owner}


@pytest.mark.parametrize("line, price", [
    ("The Quokkabase trial was $6/user/mo, we said no.", "$6/user/mo"),  # a price per user per month, whole
    ("Quokkabase renews at $100 per seat a month for 12 seats.", "$100 per seat a month"),
    ("Quokkabase costs £410/month on the team plan.", "£410/month"),
])
def test_a_price_keeps_each_unit_it_is_per(line, price):
    ex = extract(f"# Tools\n\n{line}\n")
    assert {c.value for c in ex.claims if c.attribute == "price" and c.subject == "Quokkabase"} == {price}


@pytest.mark.parametrize("text, owner", [
    ("We pushed back with the Quokkabase quote Marta Quillon got last month ($148,000/year).", "Quokkabase"),
    ("Marta Quillon, I can't get to $2.85 on a 1-year.", None),  # the person addressed has no price
    ("Budget from Marta Quillon: about $130k for Quokkabase devices.", None),  # nor the one who grants it
])
def test_a_price_is_never_stated_of_a_person(text, owner):
    ex = extract(f"# Renewal\n\nMarta Quillon runs finance.\n\n{text}\n")
    assert {c.subject for c in ex.claims if c.attribute == "price"} == ({owner} if owner else set())


@pytest.mark.parametrize("line, kept, dropped", [
    ("Quokkabase renewal quote came in at €14,400/yr (was €12,900).", "€14,400/yr", "€12,900"),
    ("Quokkabase now costs $2,100/month, up from $1,800.", "$2,100/month", "$1,800"),
    ("The Quokkabase contract ends 30 Jun 2027 (was 31 Mar 2027).", "30 Jun 2027", "31 Mar 2027"),
    # a version before an arrow to another is the one it changes from (held out: "LX420 3.2.7 → 3.3.1")
    ("- firmware rollout Quokkabase 3.2.7 → 3.3.1 (OPS-1430): 12/46 done", "3.3.1", "3.2.7"),
    ("- Quokkabase 2.9 -> 3.0 on all nodes tonight", "3.0", "2.9"),
])
def test_a_value_the_sentence_says_held_before_is_no_claim_of_now(line, kept, dropped):
    values = {c.value for c in extract(f"# Notes\n\n{line}\n").claims if c.subject == "Quokkabase"}
    assert any(kept in v for v in values)
    assert dropped not in values


def test_a_bare_was_still_states_a_value():
    values = {c.value for c in extract("# Notes\n\nThe Quokkabase outage was 42 minutes.\n").claims}
    assert any("42 minutes" in v for v in values)


# -- a nested list item is about what the item it sits in names ------------------------------------------


@pytest.mark.parametrize("text, name, line", [
    ("# ops sync\n\n- Quarrymill upgrade\n  - rollback plan unchanged, Bea on call\n\nQuarrymill runs the permits.\n",
     "Quarrymill", 4),
    ("# ops sync\n\n- Quarrymill upgrade\n  - new date thurs 15 oct, CHG-0193 re-approved\n\nQuarrymill runs the permits.\n",
     "Quarrymill", 4),  # a nested item naming a ticket of its own is about its parent's name too
    ("# ops sync\n\n1. Tessaly badges for the wards\n   - £96k year one, then £40k/yr\n\nTessaly sells the badges.\n",
     "Tessaly", 4),
])
def test_a_nested_item_is_about_its_parents_name(text: str, name: str, line: int) -> None:
    assert line in {ln for _a, _v, ln in claims_of(text, name)}


@pytest.mark.parametrize("text, name, line", [
    ("# ops sync\n\n- Quarrymill upgrade\n- rollback plan unchanged\n\nQuarrymill runs the permits.\n",
     "Quarrymill", 4),  # a sibling item, not a nested one
    ("# ops sync\n\n- Quarrymill upgrade\n\nThe rollback plan is unchanged.\n\nQuarrymill runs the permits.\n",
     "Quarrymill", 5),  # a paragraph after the list
])
def test_an_item_that_is_not_nested_is_not_its_neighbours(text: str, name: str, line: int) -> None:
    assert line not in {ln for _a, _v, ln in claims_of(text, name)}


# -- a checkbox item opens with its verb ---------------------------------------------------------------


@pytest.mark.parametrize("text, name, not_name", [
    ("# Q1\n\n- [x] Sign Quillsmith 3yr deal, $19,800 total\n", "Quillsmith", "Sign Quillsmith"),
    ("# Q1\n\n- [ ] Add Zabbix alerts at 80% on mon-01\n", "Zabbix", "Add Zabbix"),
])
def test_a_checkbox_item_opens_with_its_verb(text: str, name: str, not_name: str) -> None:
    names = entity_names(text)
    assert name in names and not_name not in names


def test_a_checkbox_item_opened_by_its_owner_keeps_the_owners_name() -> None:
    names = entity_names("# Q1\n\n- [ ] Mark Oduya to book the room for 3 Dec\n\nMark Oduya runs the rota.\n")
    assert "Mark Oduya" in names and "Oduya" not in names
