"""The extraction data model: what every extractor (built in or a model) makes of one source.

An `Extraction` holds claims (subject, attribute, value with unit, scope, confidence, evidence = path +
line range + source digest), concepts (defined terms, glossary entries, abbreviations), entities (named
things, typed where the text says), a summary, open questions and the compile-loss count, and its cache
form (`to_json` / `from_json`). The claim model itself (`Claim`, `Evidence`, `Question`) lives in the
core. A leaf: the extraction step, the extractors and everything after extraction import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from kctui.core.claims import Claim, Evidence, Question

if TYPE_CHECKING:
    from kctui.compiler.readers.base import Document

EXTRACTOR_VERSION = "builtin-extract/57"  # 57 (session 31): a line an action rule typed that is no action item by its structure is typed as what it is, its due dropped (not_tasks.py): a roster line, a name and a role noun phrase first ("Aisha Bello: tech lead, Lagos"), a "role"; a report, a name or a label and a verb's past first with no word of what comes next ("Tomas: finished the migration", "Mailchimp — cancelled Nov 2025"), a "status"; a threshold and an arrow ("p99 > 800ms for 5m → page on-call"), a "rule"; a ticked box naming no owner and no date ("- [x] M365 / Teams"), "checked off"; a table's column of steps is a procedure's (a runsheet's), no column of tasks; a source that is not UTF-8 reads as Windows-1252 (Latin-1) when that decodes it cleanly, replacement characters only when nothing does; a text source over the `max_source_bytes` cap (default 1 MiB, was 8 MiB) is skipped with its reason; a hidden file or folder (a name starting with a dot) is never compiled, one line each; a date a line says moved ("the Postgres cutover moves from 21 Nov to 28 Nov") is the new date of the thing, of its event where the line names one before the verb (moved_values.py); a list item opening with a name of its own said once does not go on with the item before's thing ("- Hetzner maintenance window …" after an item on Datadog); disputes only between values of one fact (core/disputable.py: not a form-only twin of a named fact on the same line, a difference "$1,000 a month cheaper", a field's label "Owner: Jonas Weber"; "Renewal" and "renews on" one fact); a renamed source, same bytes, moves its citations (steps/renames.py); 56 (session 30): a value in what a person says, asks for or approves is not theirs ("Priyanka negotiating, aiming for under $1,250", "Leah says the v3.2 pack …"; stated_values.speaks); a version a rollback goes back to is a "rollback target", not the version now ("Roll back to ingest-gateway 2.2.9"); a price ends on its digit ("£5,750, as quoted"); a paragraph of chat lines opening on the speaker and then the time ("**Marta Kowalski** 09:20: …") is read line by line; a person's full name alone in a later cell of a table row gets a page on one mention, value or not ("| Bluewake Comms | Starlink reseller | Rachel Amos | …": a register's contact; cell_people.py); a rare capitalised word alone in brackets after a word, or first in them before a comma, gets one in a sentence with no value too ("told Finance (Gavin) already", "Oracle DBA (Sanjay, via Cerner support)"; not after a full name, an amount, its own short form, nor an ordinary word: bracketed_given.py); action items handed in more of the ways notes write it (named_tasks.py): a person written in lower case before "to" / "will" and a verb where the document writes the word where a person goes ("jules to tell Framelock", "mel will set it up"), someone needed for a task ("need Bea to sort it"), an ask answered by a name after an arrow ("who owns the cert going forward? -> Tunde"), a task under way with its time ("Ruth sending the signed order form this week"), a given name of one of the document's people or a common given name written where a name goes before "to" or a task's present ("Tom to request via ServiceNow", "Sam to grant this week"), an owner in brackets with a time to come ("(Tom, today)"), a pledge reported ("Tom said he'd do them"), a lower-case person opening a list item with a task's present ("tomek adds her as staff"); a pledge's "will" after a spaced hyphen or a question ("- will do it weds eve", "driver? will test 3.9"), "will sort"; a table with an owner column under an actions heading, a column headed "by" beside the owner's its due; decisions: a freeze set with its time ("Christmas change freeze: 14 Dec → 4 Jan"), "we said no", "we decided for …", "yes, Dave confirmed", "happy to accept"; a section whose heading names nothing outside its brackets is about the thing its brackets name alone, not a person ("## Cloud backup (Project Tidewater)"; steps/heading_aside.py), and so is a note whose title names nothing outside them, where the aside is one name the note writes again ("# Google Front End (GFE)"; not "(SEV2)" said once); a record's header written as a table of two cells in the note's opening lines ("| Incident | INC-4588 |" / "| Duration | 09:00 – 11:42 |") states the record's fields as "Label: value" lines do; a sentence's opening word glued to the name after it is no part of it where the document writes the name alone elsewhere, every "W X" opens its sentence, item, cell or heading, W is an English word and no name of the document (never capitalised mid-sentence, opening no other name) and X is no ordinary word ("Need Tappa 3.3.0 on all validators", "**Renew Aspera.**", "Today DeepL is the default": Tappa, Aspera, DeepL; not "Open OnDemand", "Project Relay", a table's "Cisco Meraki"; builtin/glued_openers.py); 55 (session 29): a weekday named alone is the one before or after the turn's date as its clause's tense says (core/tense.py: "Picked her up on Saturday", "Tuesday if nothing breaks"; left as written where the clause says neither), written as its date; a version with its "v" is one value ("cert-manager v1.12"), one in the bracket after a name that name's ("Unleash (self-hosted, v5.7 …)"); a paragraph of stamped chat lines ("[09:41] Name: text") is read line by line; a list item's lead of two to four words before a colon or a dash, with a value after it, names what the item states a fact of ("- code freeze: moved to Fri 6 Nov", "- **Stanton weighbridge**: Trutrak verification Tue 3 Mar"; item_leads.py): a page where its note writes it again, else a passing mention that recurs where another source writes it, in lower case too; not a lead ending on a state, a verb's past, an attribute's noun, a check's noun ("Disk age check"), a single letter ("Option B") or a plural in lower case ("PA creds", "aggbridge logs"); a lone word that opens a longer name stands for it only where the rest is written as a surname is, with a capital, not a name and a lower-case head noun ("aggbridge" keeps its page beside "aggbridge logs"; steps/head_nouns.py); a list item's owner after a dash is read in more forms, a common given name the document writes where a name goes ("**FortiCare 6/30** — Marcus"), several owners joined ("— Ines/Dev", "— Gus + Tash after standup") and the writer's "me" ("— me, 2 sprints"); a person written in lower case before "to" and a verb is handed the task ("jonas to find which robots …"); a name with an accent opens a task in the present ("Tomás owns the shutdown"); a reply's mark of assent opens its clause as "ok" does ("👍 will do this week"), and before a verb's base form and what it takes asks for a task ("👍 put a change in"); 54 (session 28): a paragraph of short lines each its own (a signature, an address, abbreviations one a line) is read line by line, a signature's lines its first line's; a person's choice or refusal is a decision ("Dana picked QR badges …", "Olu says no, ignore", "Tom says leave it, not this quarter"), and so is a list item or sentence closed by "no." ("NetApp quoted $61,300 to extend 1 yr. no."); a task labelled "TODO:" / "TODO(Jonah):" is an action item; a person closing a clause with a task under way ("— Jordi chasing", "price TBD, Dana negotiating", "(Felix checking)") owns an action item, a common given name the document writes where a name goes too; 53 (session 27): a given name alone gets a page where its place sets it apart as a person's: a role in brackets after it ("Carla (FOH manager)", "Priya (EE)"), alone in brackets after a role ("integration engineer (Owen)"), someone of an organisation mid-sentence ("with Steve from Chipside"; given_names.py); a surname after a title with its period is shaped as a person's name ("Ms. Adeyemi"); a line holding a Windows share or backslashes in a code span is a statement like any other ("`\\\\nas02\\masters`", statements.markup); decisions and action items in more of their words and places: a date chosen over another ("next standup wed, not tues", "… instead of 10/20"), a plan said ("plan: pilot at store 117 this Thu"), a plan moved with its thing named first ("**pg16 cutover moved** from …", "officially pushing to Jan"), a thing kept or parked in more words ("continues till end of Jan", "leave the AP on port 31 for now", "Wasabi parked."), a risk accepted ("Accepting that."), a call made ("made the call to", "14:44 decision to roll back", "→ doing it", "— chosen", "new cutover date:"), a word of assent before an order ("fine, sign the month-to-month", "Dave: yes just order it"), a thing rolled back or switched ("rolled the plugin back to 8.6.1", "Switching standard to …"); a chat turn's sentence under its header line is read as said, not as its whole line, and the sentences before a closing question may pledge or decide; a decision on a line (a group's "we'll go with", an item under a decisions heading) leaves its other sentences free to hand a task ("… Please send the paperwork"); a capitalised word the document never writes in lower case, rarer than an ordinary word, before "to" and a verb hands the task ("- Hannah to chase editorial …"); a paragraph that only labels what follows ("Decisions", "parking lot:", "Dear Helen,") is no source page's description; a bold lead whose text opens on a participle or a word of state ("**Rui**: still on …", "**PRTG**: added sensors …") is the term's news, a note on its page, not its definition; 52 (session 26): decisions as typed claims by more of their words (decided.py): an assent ("Sinead ok with that", "fine by me", "said yes", "we can accept …", "accepted as-is", "go ahead", "9 it is.", "signed w/ …", a date "confirmed"), a plan moved with its thing named ("Moving the cutover to Sat 28 Feb"), a value set ("was raised to 10 min", "bumped heap to 2g"), a value with its former one ("now 60 days (was 90)", "(was 22 Nov, moved …)", "$145 -> $155 from 1 Jan"), a bold new value before "not" the old, a plan called off ("NOT happening", "not now", "Park till FY27"), "final." alone, more words of assent opening an order ("whatever, go …", "👍"); a line's sentences before its closing question or lead-in are read; the rows of a table and the owned items under a decisions heading are decisions; a "Decision:" field is typed a decision; a domain's number after a colon is its port, not a version ("harbor.int:443"); a verb of saying or thinking opens the clause that states a value ("Kwame estimates the Redis box costs ~$210/month" is the box's); a bold lead holding a time said from the note's day ("**Priya**: purge notice went out this morning") defines nothing; a note's title that opens with a party's name and names an event of a thing after a separator is about the event and its thing, not the party ("Whitcombe Larkin – Mimecast renewal (exp. 4/30/2026)": its lines that name nothing are the renewal's and Mimecast's; steps/title_event.py); 51 (session 25): a label that is a function word or an email's Cc ("From: Hannah Price") gives its name no role; a host's name of hyphen-joined parts ending in a zero-padded number gets a page on one mention ("tessel-build01", "BOS-DC01"; host_names.py); a source page carries its file's name and a slug stem of several words as aliases; a model's name of two words or more is found in the plural ("both Furuno FMD-3200s"; steps/plural_names.py); a line of a note that names other things and not what its title names leaves the title's page, unless a label opens it, it is a record's write-up or a person's own note (steps/title_scope.py); a one-word name a document writes only after the same maker's word is that longer name's alias ("OneCare" of "Zebra OneCare"), a model's number written only after its maker is titled with it ("Helix HX-2"; written_after.py); a table's name cell holding a remark names only its bold name; action items by the owner's place and the verb's tense: a person as the subject of a task verb in the present ("Marek rolls …", assigned.py), the writer's "I" left out ("will push back", "swapping it tmrw"), an owner closing a list item in brackets, after an arrow or a dash, a given name before "to"/"will", a standup item labelled for the day ("t:"), tables with an owner and a when column; 50 (session 24): a name opening its line, set off by a dash or a bracket (a shaped name also by a colon) from two words or more the line says of it, is what the line states a fact of and gets a page on one mention ("Rackspace - old hosting, ended 2023", "GitLab: `lab-informatics` group, Developer role — Felix"; not one in bold alone, "**Offsite** - …": the item's label); names a sentence gives only as examples of a kind ("for example DateJs or Redux", "(i.e. CloudSQL, RDS, Aurora, Aiven, etc)", "tools like Zapier"), a record's number it only points to ("For more details, see #28117.") or counting up from 1 ("Closes #12345"), and a name inside an address it writes out are no facts of that sentence (examples.py); a sentence that only says what else its section's term is called ("Also sometimes referred to as "code intelligence data."") gives that term an alias, not a concept of its own (other_names.py); the mention step finds a page titled by a name of two words by its first word where no other page shares it ("Karen" of Karen Holt, "Acer" of Acer C736; not "Keeper" of Keeper Business, "Storage" of Storage Protect: a frequent second word is a kind's), and by its initials or a two-part word's capitals only where a name goes ("DJ did it", "PD pages Tomek"; steps/first_words.py); an event or project named in one line of its note (not a heading, not an email's subject) is a passing mention, a page where another source names it too ("SOTI renewal quote in, no change"); a telephone's extension ("x2210"), an identifier with a part held open ("TX-xx") and an offset from UTC ("UTC+5") title no page; a line's words that mark a decision (a value changed, a choice ordered, a rejection, a final rule, an approval, a thing kept for a while, not before a time: decided.py), "Decision (who):" leads, "Not doing" headings, are decisions; a model's designation written alone where its document also names it with the word before it is that one thing ("the TSX600" of "Thermo TSX600"), not where two longer names end with it; four numbers to 255 joined by dots are an address, not a version ("10.20.4.15"); 49 (session 23): a code span that is an identifier typed by the noun beside it or stated of is a thing ("the `carrier_invoice_sftp` job", code_things.py); action items and decisions said in so many words: a pledge, a request, an owned list item, a group's commitment (commitments.py), a checkbox owner before a dash; a label's word alone on its line leads its list; "What"/"Item" beside an owner column is a register of things; "&" between two capitalised English words joins a firm's name ("Ardent Fire & Security"), "+" after a capitalised word is part of it ("XProtect Professional+"), a count in brackets, a week number or a closed-up compound titles no page, nor a post ("Marine Superintendent", "Site Principals"); the mention step: a statement its note's title places on a page and that states a value the reading takes for another thing's, none of the title's, leaves the title's page ("Running cost: about 40 LTO-9 cartridges a year, roughly £3,200." in an ADR on /home); a page cites a list item once, not also its sentences; a log entry opening with its day and time of day ("- Tue 01:12 — …") does not go on with the one before; a year and a comma end a date; a price keeps each unit it is per ("$6/user/mo"); an arrow before a label sets fields apart ("From: Jonas → To: Mireille"); 48 (session 22): an entry of a log (two list items each opening with a time of day) does not go on with the entry before ("- 13:31 limit raised to 1Gi" is not the previous entry's Bruno's); 47 (session 22): a bold lead's section ends where its own list or paragraph does, a chat turn or a list item that names its own thing opens a topic (no longer the previous one's); a model's designation in more forms ("Brother HL-L8360", "USW-Lite-8-PoE"), a zero-padded asset number in capitals and a ticket's number alone ("#4471") get a page on one mention with a fact, not an HTTP error status in the plural ("Fastly 503s"); events and projects named by a thing's name and a noun of a doing ("CKF cutover", "Fastly renewal") get a page; "for" and "&" inside a name ("Defender for Business", "Harlan & Moss LLP"), a full name its source types a person counts among the base's people, a two-word person-shaped name in a source of people; decisions and action items as typed claims where a section, a lead-in or a table says so, in wider phrasings (agenda.py); 46 (session 22): a line of fields ("**Severity:** SEV2 **Duration:** 47 min **Commander:** Hana Sato", "A: x | B: y") states each field of what the note is about, and its values are no name's; 45 (session 22): a value after a clause that another name opens is that name's, not the sentence's first ("Grafana OnCall migration is done, PagerDuty contract ends 31 Dec 2026"); 44 (session 22): an HTTP error status in the plural is no duration ("webhook 502s", "Samsara 429s"); 43 (session 21): a model's number in the plural after a hyphen is no duration ("all VR-220s"); 42 (session 21): a model's designation after a capitalised word is part of its name ("Makito X4", "Huawei B535"), and where the run opens its sentence its maker's word is kept ("Dell PowerEdge T160", "Dell Latitude 7450" in a cell), a model's number after one word of inner capitals ("FortiGate 200F") and a generation after it ("Lenovo 100e Gen 3"); a chat's one-word turn header ("**suni** 09:12") and a one-word heading a list of people names are people, a "Supplier" column names companies, a word English lacks after "via", "from" or "at" in a statement of fact is a passing mention ("from fleetctl"); a date glued to a name's edge ("3 Sep Wrekin", "Waterfront Wed 9", "Dana Thursdays"), a verb's past opening its sentence ("Reinstalled FTDI driver"), a possessive ("run by Hannah Cole's team") are no part of the name; a nickname before a full name in brackets is its alias ("Dev (Devendra Malhotra)"); a lone surname after a particle stands for its person ("de Vries"); an ordinary word in capitals before a record's identifier splits an alert's text ("FrostLine CRITICAL FRZ-04"); a reading ("-58 °C", "92%") is never part of a title; a day or a month alone is no defined term ("**Tue** — …"); the mention step: a statement opening with a name of another thing is that thing's, not its section's or title's, and a bold line that is a name alone is no note of its page; 41 (session 20): a table comparing things side by side (the header's first cell empty, the things in its other cells) states each cell of its column's thing; one rare capitalised word, a word of two capitalised parts or two or three capitalised words mid-sentence get a page on one mention in a sentence with a value, a list item or a row ("via Freshservice", "enroll in Jamf", "Google Workspace"); a name joined by hyphens as code joins them, in a code span or quotes of its own or ending in a host's number, gets a page on one mention where its sentence states a fact of it ("payouts-critical", "pg-settle-04"); a word opening a sentence before a determiner is a verb ("Reinstall the previous package"); 40 (session 19): people set apart by their place get a page on one mention ("Dan Reyes (AE)", "account mgr: Neil Foster", "our AE there is Rachel Kim", "(Stephanie from Statsig)"), lower-case lists of people and chat speakers name people; identifiers with underscores a document names bare in its prose, and records named by an acronym and a number ("PR #817"), are things; a passing mention another source writes letter for letter recurs; 39: a price is never stated of a person (the one greeted, quoted or asked to approve it); an acronym is no part of a person's name ("Skyfold CDN"); a value marked as former ("(was €12,900)", "up from 3") is no claim; 38 (session 18): a date written in several words is one value; one capitalised word alone in brackets after a word is a name with a fact ("our integration engineer (Owen)"); a name cell is not split inside brackets, a remark in brackets leaves the title; a model's generation and a number ending in letters belong to the name ("ThinkPad T14 Gen 5", "Xeon Platinum 8568Y+"); a verb glued by an apostrophe is no name; a word English lacks in a sentence of another language is no coined name; an ordinary word opening a roster line is a label where the attendees leave it out; a bold standup head with an aside, or ending in -s, is a person ("**Jonas** (out until Wed)"); a name and a colon before a statement ("Pagerduty: we're at 14 seats") is no action item; two ordinary capitalised words opening a sentence before a release number and a verb are a name ("Fluent Bit 2.2 drops lines"); a record identifier of several parts gets a page on one mention ("PO-2026-0147", "FD-Q-20417"). 37: a capitalised word opening its sentence as the bare subject of a verb is a name ("Sentry handles error tracking; …"). 36 (session 17): a name in a name's shape gets a page on one mention where its sentence states a value, a record's identifier in any sentence (named_once); junk titles: a task's verb in a cell, a greeting, names joined in a cell, a role beside its holder, header labels, ordinary words before a digit; every stated fact reaches what its source is about, lower-case sources, header fields, sender domains, chat replies, brand words; a role field names its person, an email header people with common names; "1Password" is a name; a term date keeps its verb ("ends on"). 35: a checkbox item opens with its verb: "- [x] Sign Cloudsmith 3yr deal" names Cloudsmith, not "Sign Cloudsmith" (not its owner: "- [ ] Mark Oduya to …"); 34: a list item holding a value right after an item of its list at its level continues that item (Statement.follows); 33: a chat's word only ever opening one speaker's turns, set off, is an interjection, no name (Blimey, Felicidades); an auxiliary opening a question is no part of the name after it (Was Niamh there?); a given name and an initial (Tomasz W.) keeps a list of names one; the mention step finds a lower-case given name where it stands as a name (kim owns …, kim + luis, | kim |, w/ tom) and a page titled by a name and a number or a domain by its head word where no other page shares it (PRTG of PRTG 500, bunny of Bunny.net); 32: a nested list item is about what the item it sits in names; 31: a table cell with a shaped word in a phrase of lower-case words (a task: Renew PagerDuty seats) names no thing; 30: a title or heading with a value is a statement of its source page; a person's full name a fact is stated of, a host's number (also zero-padded at its end: gcs01) in a sentence with a value and an asset's zero-padded number stated of get a page on one mention; a model's designation after a name is part of it (Aurelia X8), a name ending in one stated of strongly gets a page on one mention (PowerEdge XE9680); a vendor list's supplier column names companies; 29: no page titled by an English compound (dial-up, on-prem), an English word written short (recvd, Bldg) or a period of the year (FY27); a one-word name only a sentence start capitalises is none where the note's headings write it in lower case; 28: after a function word opening a sentence (Your, The, Our), the capitals that follow are the text's own (Your Sentry Business plan); 27: two full names after a label make a list of names (Deciders: Maya Lind, Tomas Ek); 26: a vendor list's product column names what its rows are about; an email is titled by its subject line, a note by its first heading of any level; a header of fields gives way to the first prose paragraph as the description; a name one document does not vouch for enough is a passing mention however often it names it; a full name after a colon, a bracket or a dash is a loose mention; a record's identifier ends a name and a record's long number (RITM0048812) is one of its own; a lone word before a name with a number recurs on its own; a bold line among bold names heads a person's part; a line of one or two capitalised words leads its list; a title part's trailing clause is no part of its person's name; a later sentence of a paragraph on the line where the one before ends continues its subject (Statement.follows); 25: a span of days or months is no name (Thu-Fri); a title with a dot opens a person's name (Capt. Fiona Grant), also in a list of names; 24: names written in lower case or as models (coined words with a fact, snake_case accounts, #channels, an edition or revision after a name), a plural acronym heads no name; 23: a label of up to 40 characters before a list of names; a claim of a name's other spelling that its own claim says already is dropped; 22: a list of names and a bold name line written in lower case; 21: a one-word name that stands for one person of the base lands on their page (steps/people.py), chat speakers in bold are people; a clause in brackets describes nothing; 20: a list of names wrapped onto the next line (a trailing comma); 19: names among names (a roster or list mostly of names, a column of names), the people of an email's header and addresses; 18: every statement of a source, kept for the pages of the names it contains; 17: the first-name rule of 12 taken back (an incremental pass differed from a full one); 16: a host's number is shaped like a name (c147, db01); 15: a root path in prose is a name; 14: a person's name with a fact gets a page on one mention; 13: a word written in lower case in another number is no name; "Co-op" is one word; 12: a first name a source gives a page of its own recurs across sources; 11: a note whose title names a person is about them; 10: names by the place a note gives them (rosters, lists of names); 9: name shapes of notes (identifiers with a number part, compounds headed by a kind of thing, titles, roles); 8: recall first (issue 31): a value stated of a name, table rows, records; 7: conversations (turns, speakers, what they say of themselves); 6: a dotted version after a name marks it at a sentence start; 5: a record of a list cites its lines (a table row), with its identifying claim; passing mentions


class Statement(NamedTuple):
    """One sentence, list item or table row of the source, as its claim would say it (its lines contain
    it), and the heading or lead line of the section it stands in ("" when none)."""

    value: str
    scope: str
    start: int
    end: int
    unit: str = "line"  # as Evidence.unit
    follows: bool = False  # a later sentence of a paragraph, on the line where the one before it ends

    def evidence(self, ex: Extraction) -> Evidence:
        return Evidence(ex.path, self.start, self.end, ex.digest, self.unit)


@dataclass(frozen=True, slots=True)
class Concept:
    name: str
    aliases: tuple[str, ...]
    evidence: Evidence
    origin: str  # definition | deflist | abbreviation | heading | glossary


@dataclass(frozen=True, slots=True)
class Entity:
    name: str  # canonical name
    entity_type: str  # person, company, tool, library, team, product, ... or "" when the text does not say
    surface: str  # the spelling the source uses at `evidence`
    aliases: tuple[str, ...]
    evidence: Evidence


@dataclass
class Extraction:
    path: str
    digest: str
    kind: str  # markdown | text | html | pdf
    title: str
    source_type: str  # article | pdf | note | data | ...
    domain: str
    tags: tuple[str, ...] = ()
    summary: tuple[str, Evidence] | None = None
    subject: Entity | None = None  # what the whole document is about, when it says so
    claims: list[Claim] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    unreached: tuple[str, ...] = ()  # compile-loss guard: dates/versions/numbers in no claim
    dropped: int = 0  # candidate claims whose cited lines did not contain the value
    warnings: list[str] = field(default_factory=list)
    # names this source marks in one sentence only, and what it says about them (each cited): entities
    # once another source names them too (kctui.compiler.steps.recurrence), else only listed on its source page
    passing: list[Entity] = field(default_factory=list)
    passing_claims: list[Claim] = field(default_factory=list)
    # every sentence, list item and table row, with the section it stands in: the mention step
    # (kctui.compiler.steps.mentions) attaches each to the pages of the names it contains
    statements: list[Statement] = field(default_factory=list)

    # -- cache form ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in _CLAIM_LISTS}
        data["claims"] = [self._claim_row(c) for c in self.claims]
        data["passing_claims"] = [self._claim_row(c) for c in self.passing_claims]
        data["statements"] = [list(st) for st in self.statements]
        data["v"] = EXTRACTOR_VERSION
        return data

    def _claim_row(self, c: Claim) -> list:
        """A claim's cache form: its texts and lines in a row, its evidence's path and digest only where they
        are not the extraction's own (a claim as a dict of dicts, `Claim.to_json`, is several times the bytes
        to write, and the extraction's largest part; `from_json` reads both)."""
        ev = c.evidence
        row = [c.subject, c.attribute, c.value, c.scope, c.form, c.origin, ev.start, ev.end, ev.unit]
        if ev.path != self.path or ev.digest != self.digest:
            row += [ev.path, ev.digest]
        return row

    @classmethod
    def from_json(cls, data: dict) -> Extraction:
        if data.get("v") != EXTRACTOR_VERSION:
            raise ValueError("extraction cache entry from another extractor version")

        def ev(d: dict) -> Evidence:
            return Evidence(**d)

        path, digest = data["path"], data["digest"]

        def claim(c: dict | list) -> Claim:  # (a row, `_claim_row`, or a dict, as earlier entries hold it)
            if isinstance(c, dict):
                return Claim(**{**c, "evidence": ev(c["evidence"])})
            where = (c[9], c[10]) if len(c) > 9 else (path, digest)
            return Claim(c[0], c[1], c[2], c[3], c[4], c[5], Evidence(where[0], c[6], c[7], where[1], c[8]))

        summary = data.get("summary")
        subject = data.get("subject")
        return cls(
            path=data["path"],
            digest=data["digest"],
            kind=data["kind"],
            title=data["title"],
            source_type=data["source_type"],
            domain=data["domain"],
            tags=tuple(data.get("tags", ())),
            summary=(summary[0], ev(summary[1])) if summary else None,
            subject=_entity(subject) if subject else None,
            claims=[claim(c) for c in data["claims"]],
            concepts=[Concept(c["name"], tuple(c["aliases"]), ev(c["evidence"]), c["origin"]) for c in data["concepts"]],
            entities=[_entity(e) for e in data["entities"]],
            questions=[Question(q["text"], ev(q["evidence"])) for q in data["questions"]],
            unreached=tuple(data.get("unreached", ())),
            dropped=int(data.get("dropped", 0)),
            warnings=list(data.get("warnings", ())),
            passing=[_entity(e) for e in data.get("passing", ())],
            passing_claims=[claim(c) for c in data.get("passing_claims", ())],
            statements=[Statement(*st) for st in data.get("statements", ())],
        )


_CLAIM_LISTS = frozenset({"claims", "passing_claims", "statements"})


def _plain(value):  # noqa: ANN001, ANN202
    """A field's JSON form (dataclasses as dicts, tuples as lists): what `dataclasses.asdict` gives, as
    JSON writes it, without its deep copy of every string (the fields are strings, numbers, tuples and
    frozen dataclasses of them)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    names = _field_names(type(value))
    return {name: _plain(getattr(value, name)) for name in names} if names else value


@lru_cache(maxsize=256)
def _field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names (none for any other type)."""
    return tuple(f.name for f in fields(kind)) if is_dataclass(kind) else ()


def _entity(d: dict) -> Entity:
    return Entity(d["name"], d["entity_type"], d["surface"], tuple(d["aliases"]), Evidence(**d["evidence"]))


def cited_lines(doc: Document, evidence: Evidence) -> list[str]:
    if evidence.unit == "page":
        return doc.lines[evidence.start - 1 : evidence.start]
    return doc.lines[evidence.start - 1 : evidence.end]
