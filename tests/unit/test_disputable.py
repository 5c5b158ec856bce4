"""Which facts can disagree (QA session 31, problem 8): a value disputes only as a value of its subject's
fact — not a twin of a named fact on the same lines, a difference, or a field's label (kctui.core.disputable)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.page_update import conflicts_of
from kctui.core.claims import Claim, Evidence
from kctui.core.disputable import difference, disputable, field_label


def _c(subject: str, attribute: str, value: str, path: str, line: int) -> Claim:
    return Claim(subject, attribute, value, "", "fact", "statement", Evidence(path, line, line, "sha256:x"))


def _note(subject: str, text: str, path: str, line: int) -> Claim:
    return Claim(subject, "note", text, "", "statement", "statement", Evidence(path, line, line, "sha256:x"))


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("We go with Bunny.net, because it is $1,000 a month cheaper.", "$1,000 a month", True),
    ("The new plan costs $200 more than the old one.", "$200", True),
    ("Support fees were cut by $300.", "$300", True),
    ("It ships 3 days later than planned.", "3 days", True),
    ("The Fastly price is $3,900 / month for two years.", "$3,900 / month", False),
    ("The CDN budget for 2027 is $50,400.", "$50,400", False),
    ("Postgres cutover moves to 28 Nov.", "28 Nov", False),
])
def test_a_difference_is_no_price(text: str, value: str, expected: bool) -> None:
    assert difference(text, value) is expected


@pytest.mark.parametrize(("text", "value", "subject", "expected"), [
    ("Owner: Jonas Weber", "Owner", "Jonas Weber", True),
    ("**Owner:** Jonas Weber", "Owner", "Jonas Weber", True),
    ("Jonas Weber is the owner of the queue.", "owner", "Jonas Weber", False),
    ("Role: Platform engineer", "Platform engineer", "Jonas Weber", False),
])
def test_a_field_label_is_no_role(text: str, value: str, subject: str, expected: bool) -> None:
    assert field_label(text, value, subject) is expected


def test_one_price_line_disputes_once() -> None:
    """"The Fastly price is $3,900 / month" is `price` and `amount`: one conflict, under `price`."""
    claims = [_c("Fastly", "price", "$3,900 / month", "a.md", 7), _c("Fastly", "amount", "$3,900", "a.md", 7),
              _c("Fastly", "price", "$4,200 a month", "b.md", 8), _c("Fastly", "amount", "$4,200", "b.md", 8)]
    assert list(conflicts_of(claims)) == [("price", "", "")]


def test_a_dated_event_disputes_no_other_by_its_form() -> None:
    """An expiry (named `expires on`, and `date` by its form) against a notice deadline: no conflict."""
    claims = [_c("Fastly", "expires on", "2027-11-03", "standup.md", 4), _c("Fastly", "date", "2027-11-03", "standup.md", 4),
              _c("Fastly", "date", "1 Dec", "planning.md", 10)]
    assert conflicts_of(claims) == {}


def test_real_disagreements_still_dispute() -> None:
    claims = [_c("RabbitMQ", "date", "31 January 2027", "adr-7.md", 14),
              _note("RabbitMQ", "RabbitMQ shutdown is planned for 31 January 2027.", "adr-7.md", 14),
              _c("RabbitMQ", "date", "30 April 2027", "adr-9.md", 9)]
    assert list(conflicts_of(claims)) == [("date", "", "")]


def test_a_field_label_and_a_difference_stand_aside() -> None:
    claims = [_c("Jonas Weber", "role", "Owner", "adr.md", 5), _note("Jonas Weber", "Owner: Jonas Weber", "adr.md", 5),
              _c("Jonas Weber", "role", "Platform engineer", "roster.md", 8),
              _c("CDN", "price", "$1,000 a month", "plan.md", 6),
              _note("CDN", "We go with Bunny.net because it is $1,000 a month cheaper.", "plan.md", 6),
              _c("CDN", "price", "$50,400", "email.md", 8)]
    assert conflicts_of(claims) == {}
    assert [c.value for c in disputable(claims)] == ["Platform engineer", "$50,400"]


def test_renewal_and_renews_on_are_one_fact() -> None:
    """"renews on 2027-04-01, not March" against the vendor table's `Renewal: 2027-03-01`: one conflict."""
    claims = [_c("Fastly", "renews on", "2027-04-01", "email.md", 6), _c("Fastly", "Renewal", "2027-03-01", "vendors.md", 5)]
    assert list(conflicts_of(claims)) == [("renewal", "", "")]
    assert conflicts_of([_c("Fastly", "renews on", "2027-04-01", "a.md", 1), _c("Fastly", "ends on", "2027-03-01", "b.md", 1)]) == {}


def test_a_persons_dates_are_their_tasks_not_a_fact_of_theirs() -> None:
    # held out: "Lena — purchase justification draft to Dana by Fri 28 Feb" against "Pager rotated to Lena at
    # 17:00 Fri" opened a conflict on Lena's page
    claims = [_c("Lena", "date", "Fri 28 Feb", "standup.md", 32), _c("Lena", "date", "17:00 Fri", "handover.md", 21)]
    assert conflicts_of(claims, person=True) == {}
    assert list(conflicts_of(claims)) == [("date", "", "")]  # (a thing's dates still dispute: a moved cutover)
    role = [_c("Lena", "role", "sysadmin", "a.md", 1), _c("Lena", "role", "DBA", "b.md", 1)]
    assert list(conflicts_of(role, person=True)) == [("role", "", "")]  # (a named fact of a person still does)
