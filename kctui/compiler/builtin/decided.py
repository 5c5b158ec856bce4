"""Decisions marked as decided by the words of their line, where no heading, lead-in or "we chose"
says so (issue 31, point 3; session 24):

- a value changed, the old one struck through or named: "Cutover: ~~Sat 21 Nov~~ -> **Sat 28 Nov**",
  "~~Thu 29 Oct~~ **Thu 12 Nov** full dry run", "… (moved 16 Nov, export delay)", "go-live is now
  **Sat 14 Nov**, not the 7th" (the old value its *alternative*);
- a choice given as an order: "go Enercon.", "fine, do the 100.", "do 2.", "go for it";
- a rejection: "not chosen", "not pursued", "not renewing", "overruled", "don't renew", "is a no",
  "no for now", "parked for now", "scratch that", "<a thing> — no.", "<a thing> —
  cancelled Nov 2025, …";
- a standing rule said as final: "full stop", "no exceptions", "from now on";
- an approval: "Greg ok'd it", "cabinet said yes to Lightspeed Alert";
- a thing kept as it is for a while: "pi-hist-01 stays up read-only til end of June", "Old local boxes
  kept read-only for 12 months then wiped", "keep it till GLS s2 is done", "holding off … til after".

Session 27 (D) adds: a date chosen over another ("next standup wed, not tues", "… instead of 10/20"); a plan
said ("plan: pilot at store 117 this Thu"); a plan moved with its thing named first ("**pg16 cutover moved**
from sat 21 nov to …", "officially pushing to Jan"); more ways to keep or park ("continues till end of Jan",
"leave the AP on port 31 for now", "Wasabi parked."); a risk accepted ("Accepting that.", "Accepted risk"); a
call made ("made the call to …", "14:44 decision to roll back", "→ doing it", "— chosen", "new cutover date:");
a word of assent before an order ("fine, sign the month-to-month", "Dave: yes just order it"); a thing rolled
back or switched ("rolled the plugin back to 8.6.1", "Switching standard to Latitude 7450").

Each is a decision of the note (of the record, for a decision record), its value the sentence as written.
A question decides nothing, a done checklist item struck through is done, not changed, and a lead-in
(a sentence closing with ":") introduces what is decided without saying it. The words are English's
(closed class), no word of any corpus.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import agenda, commitments
from kctui.compiler.builtin.needles import Needles
from kctui.compiler.builtin.owner_place import ordered
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev, joined
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.values import cited_lines_contain

_MARKS = r"(?:\*\*|__)?"
# (a pattern whose words open with a word boundary opens with a lookahead for the letters those words
# begin with, "(?=[os])": the engine tries a pattern at every position of a sentence, and passes over a
# position no word of it begins at before trying each word's boundary; the same matches, faster)
# a clause's start: the sentence's, after a stop, a colon or a dash, or after a word of assent
_CLAUSE = r"(?:^|(?<=[.!;:—–])\s*|\b(?:ok|okay|yes|yep|yeah|sure|fine|so|then|whatever|right|great|perfect|np)[,.!]?\s+|👍\s*)"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
_WHEN_WORD = r"(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|w/c|wk|week|q[1-4]|\d)"

# a value changed: "~~Sat 21 Nov~~ -> **Sat 28 Nov**", "~~24 Sep~~ → ~~w/c 26 Oct~~ → now Tue 3 Nov",
# "~~Ravi Chandran~~ → Nadia", "~~Thu 29 Oct~~ **Thu 12 Nov**", "~~cutover 11/16~~ cutover Mon 12/7"
_STRUCK = re.compile(r"~~(?P<y>[^~\n]{1,80})~~\s*(?:(?P<arrow>->|→|=>)\s*(?:~~[^~\n]{1,80}~~\s*(?:->|→|=>)\s*)*)?"
                     r"(?:now\s+)?" + _MARKS + r"(?P<x>[A-Za-z0-9][^~\n]{1,60})")
# a changed plan's note in brackets after its value: "(moved 16 Nov, …)", "(moved bc of freeze)"
_MOVED_NOTE = re.compile(r"\((?:moved|changed|swapped|rescheduled|pushed|slipped)\s+(?:from|to|on|at|in|bc|b/c|because|again|\d|[a-z]{3}\s+\d)", re.I)
# "is now **Sat 14 Nov**, not the 7th", "doors are now 19:30, not 19:00", "now Tue 21 Apr not 14 Apr"
_NOW_NOT = re.compile(r"(?=n)\bnow\s+" + _MARKS + r"(?P<x>[^,;.()*_\d]{0,20}\d[^,;.()*_]{0,20}?)" + _MARKS + r",?\s+not\s+(?:the\s+)?(?P<y>[^,;.()*_]{2,24})", re.I)
# a choice given as an order: "go Enercon", "ok, go Acer", "fine, do the 100", "do 2.", "go for it"
_ORDER = re.compile(_CLAUSE + r"(?:nah\s+|just\s+)?(?:go\s+(?:for\s+it\b|(?:with\s+)?[A-Z0-9][\w.-]*)|[Dd]o\s+(?:the\s+)?\d+\b|[Ll]eave\s+it\s*[.!]|[Hh]old\s*[.!])")
# a thing not to be done before a time or an event: "NOT before 20 Oct", "not until the cloud trial's done"
# (not a fact's "that's not till 2025", an aside's "(not until January)" or "… or not before …")
_NOT_BEFORE = re.compile(r"(?=n)(?<!\()(?<!\bor )(?<!\bis )(?<!'s )(?<!’s )\bnot\s+(?:before|until|till)\b", re.I)
# a rejection
_REJECTED = re.compile(r"(?=[nodipsw])(?:\bnot\s+(?:chosen|pursued|renewing|renewed|selected)\b(?!\s*:)|\boverruled\b|\bdon'?t\s+renew\b"
                       r"|\bis\s+a\s+no(?:-go)?(?![\w-])|\bno\s+for\s+now\b|\b(?:parked|dropped)\s+(?:for\s+now|till|until|til)\b"
                       r"|\bstays\s+parked\b|(?<![/\w])scratch\s+that\b|\bwon'?t\s+fix\b)", re.I)
# "<a thing> — no.", "<a thing> — cancelled Nov 2025, …", "~~<a thing>~~ – dropped, …"
_STRUCK_OFF = re.compile(r"^\S.{0,80}?\s(?:—|–|-)\s*" + _MARKS + r"(?:no\s*[.!]|(?:cancell?ed|dropped|not chosen|not pursued)\b)", re.I)
# a rule said as final
_FINAL = re.compile(r"(?=[fnis])(?:\bfull\s+stop\b|\bno\s+exceptions\b|\bfrom\s+now\s+on\b|\bi\s+mean\s+it\b"
                    r"|(?:^|(?<=[.!]\s))(?:so\s+)?final\s*[.!:])", re.I)  # ("so launch is tue 8 dec. final.")
# an approval: "Greg ok'd it", "Shiv ok'd 400 on Fri", "cabinet said yes to …"
_APPROVED = re.compile(r"(?=[os])(?:\b(?:ok'?d|okayed)\b|\bsaid\s+yes\s+to\b)", re.I)
# an assent: "Sinead ok with that", "fine w/ it", "fine by me", "Marcus said yes Fri", "we can accept €2,290",
# "Agree, accept the 3 yr", "accepted as-is", "happy to go ahead", "9 it is.", "yep that's the plan", "Martin
# signed this morning", "confirmed: **Wed 8 April**" (a date agreed); not "not happy with it", "get accepted
# silently", a record's "Status: Accepted", "isn't accepting", an answer's "Mike says yes", an instruction's
# "Accept the PR if …", "go ahead and click it", an option's "Go ahead with …", "if we accept this RFC"
_ASSENT = re.compile(r"(?=[ofhgsw])(?:(?<!\bnot\s)(?<!n't\s)\b(?:ok|okay|fine|happy)\s+(?:with|w/)\s*(?:that|it|this|me|staying|the\s+\w+|option\s+\w+)\b"
                     r"|\b(?:fine|ok|okay|good)\s+by\s+me\b|\bsaid\s+yes\b|\b(?-i:go|going)\s+ahead\b(?!\s+and\b)"
                     r"|\bfine\s+with\s+(?:us\b|\d)|\bsigned\s+(?:w/|with)\s)", re.I)
_CLAUSE_NO_COLON = _CLAUSE.replace(".!;:", ".!;")  # (a clause's start, not after a colon: "Status: Accepted" is a field)
_ACCEPTED = re.compile(r"(?=[wiI])(?<!\bif\s)(?<!\bwhen\s)(?<!\bwhether\s)\b(?:we|I)\s+(?:can\s+|will\s+|'ll\s+|’ll\s+|'d\s+|would\s+)?accept\b"
                       r"|(?=[wiI])\b(?:we|I)(?:'ve|’ve|\s+have)\s+accepted\b|\b(?:agree|agreed|ok|okay|yes|fine)[,.]?\s+accept\b"
                       r"|" + _CLAUSE_NO_COLON + r"(?:agreed?|accept(?:ing|ed)?)(?:\s*[,.!]|\s*$)|" + _CLAUSE_NO_COLON + r"agreed?\s+with\b"
                       r"|(?<!\bget\s)(?<!\bgets\s)(?<!\bgot\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bnot\s)(?<![:|*]\s)(?<![:|*])\baccepted\s+(?:as|at|on|\d)", re.I)
_SIGNED = re.compile(r"\b(?-i:[A-Z][a-z]+|I|we)\s+signed\s+(?:it\s+)?(?:this|today|yesterday|last|on)\b"
                     r"|(?=c)\bconfirmed\s*:?\s*(?:for\s+)?" + _MARKS + r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d{1,2}(?:[–-]\d{1,2})?(?:/\d{1,2}|\s+" + _MONTH + r"))", re.I)
_IT_IS = re.compile(r"(?:^|(?<=[.!;:—–])\s*)[^.!?;:]{1,24}?\sit\s+is(?:\s+for\s+[^.!?;:]{1,30})?\s*[.!](?=\s|$)|(?=t)\b(?:that'?s|that’s|thats)\s+the\s+plan\b", re.I)
# a plan moved, its thing named between: "Moving the cutover to **Sat Feb 28**", "moved the claims export to
# 01:30", "ok moving Brackley cutover to w/c 1 June" (not "going to move it to …", "look at moving …")
_MOVED_WHAT = re.compile(r"(?:\b(?:moved|rescheduled|postponed)|(?:^|(?<=[.;:—–,])\s*|\b(?:ok|so|now)\s+)(?:[Mm]oving|[Rr]escheduling))"
                         r"\s+(?!to\b)(?:[\w'’./-]+\s+){1,5}?to\s+" + _MARKS + r"(?:" + _WHEN_WORD + r"|next\b|end\b|mid\b|early\b|late\b|tomorrow\b|tonight\b)", re.I)
# a value set: "Warning delay was raised to 10 min", "Changed to **2025.4**", "Quantity cut from 420 to
# **360**", "bumped heap to 2g", "I bumped it to 85%" (a setting's new value, the verb's doer the writer or
# left out; not a measure that fell, "crash-free sessions dropped from 99.6% to 94.1%")
_SET_TO = re.compile(r"(?=[crlbuie])(?:(?<=\bwas\s)|(?<=\bwere\s)|(?<=\bbeen\s)|(?<=\bgot\s)|(?<=\bI\s)"
                     r"|(?<=\bwe\s)|(?<=\bI've\s)|(?<=\bwe've\s)|(?<![\s\S])|(?<=[.;:—–,→])|(?<=[.;:—–,→]\s))"
                     r"(?:changed|raised|lowered|cut|bumped|reduced|increased|extended|upped|renegotiated)\b(?:\s+(?:down|up))?"
                     r"(?:\s+(?!to\b|from\b)[\w'’./-]+){0,4}?\s+(?:from\s+\S+\s+)?to\s+" + _MARKS + r"[~$£€]?\d", re.I)
# the new value marked, the old one after "not": "PO going out **11/6** not 11/13", "**$32k**, not 35k"
_MARKED_NOT = re.compile(r"(?=\*)\*\*[^*\n]{1,30}\*\*,?\s+not\s+(?:the\s+)?(?P<y>[~$£€]?\d[^,;.()*]{0,16})", re.I)
# a value with its former one: "Deep Archive transition now 60 days (was 90)", "**Sun 6 Dec** (was 22 Nov, moved
# b/c …)", "**8 Apr** 09:00–13:00. was 31 Mar, we pushed", "rate $145 -> $155 from 1 Jan", "300s → 60s on 11/12"
# (not a version's upgrade, "7.2.10 → 7.4.7 planned for Sat", nor a plain "was sticking, swapped")
_NOW_WAS = re.compile(r"(?=n)\bnow\s+" + _MARKS + r"(?P<x>[^()*]{1,30}?)" + _MARKS + r"\s*\(was\s+(?P<y>[^)]{1,20})\)", re.I)
_WAS_MOVED = re.compile(r"(?=w)\bwas\s+(?:due\s+)?(?P<y>(?:the\s+)?" + _WHEN_WORD + r"[^,;()]{0,20}?),\s*(?:moved|changed|pushed|swapped|rescheduled|slipped|we\s+(?:moved|pushed))\b", re.I)
_NUMBER = r"[~$£€]?\d[\d,:/%$£€]*(?:\.\d+)?[a-z%/]{0,4}"
_VALUE_FROM = re.compile(r"(?<![\w.])(?P<y>" + _NUMBER + r")\s*(?:->|→)\s*(?P<x>" + _NUMBER + r")(?![\w.])(?:\s+[\w ]{0,12})?\s+(?:from|on|effective|starting|for)\s+"
                         r"(?:\d|the\s+\d|" + _MONTH + r"|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|launch\b|next\b)", re.I)
# a plan called off: "we are NOT upgrading to 7.4+", "MA3 upgrade NOT happening today", "still not pushing before
# freeze", "not now, maybe Q3", "Park till FY27."
_CALLED_OFF = re.compile(r"(?=[wianp])(?:(?:\b(?:we'?re|we’re|we\s+are|I'?m|I’m|is|are)\s+(?:not|NOT)|(?<![\w-])(?-i:NOT))\s+"
                         r"(?:doing|happening|going\s+ahead|renewing|upgrading|pushing|proceeding|buying|switching|migrating|falling\s+back)\b"
                         r"|(?:^|(?<=[.;:—–])|(?<=[.;:—–]\s))not\s+now\b|\bpark\s+(?:it\s+|that\s+|this\s+)?(?:till?|until|for\s+now)\b)", re.I)
# a thing kept as it is for a while: "stays up read-only til end of June", "kept for now", "keep it till …"
_KEPT = re.compile(r"(?=[skhl])(?<!\bto\s)\b(?:stays?|staying|kept|keep|keeping|holding\s+off|hold\s+off|hold\s+it|leave\s+it)\b(?!\s+(?:an?\s+eye|in\s+mind|\w+ing)\b)"
                   r"[^.;:?!]{0,50}?(?:\b(?:till?|until|for\s+now|then)\b|\b(?:through|thru)\s+(?:\d|end\b|" + _MONTH + r"))", re.I)

# a date chosen over another: "next standup wed, not tues", "I'll do test on wed 4 nov, not the 3rd", "**Mon 16
# Nov** (NOT Sat - …)", "week of 11 Jan 2027** (not Dec, …)" (not "around sat but not sun", "6-8%, not 17": no dates)
_DATE = (r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|" + _MONTH + r"|\d{1,2}(?:st|nd|rd|th)\b|\d{1,2}/\d{1,2}\b"
         r"|q[1-4]\b|w/c\b|wk\s*\d)")
_DATE_NOT = re.compile(r"(?=[a-z0-9*])(?P<x>\b" + _DATE + r"[^,;.()!?*_]{0,20}?)" + _MARKS + r"\s*,?\s+\(?(?<!\bbut\s)(?<!\bor\s)(?<!\bjust\s)"
                       r"(?:(?-i:not|NOT)|instead\s+of)\s+(?:the\s+|on\s+|in\s+)?(?P<y>" + _DATE + r"[^,;.()!?*_]{0,14}?)(?=\s*(?:[,;.()!—–-]|$))", re.I)
# a plan said: "plan: pilot 7.4.3 at store 117 this Thu", "yep, plan is to move all 6 PCs to VLAN 40", "Plan is still
# **Sat 7 Nov**" (not a lead-in, "Plan:" alone, nor a noun's plan, "the Growth plan is moving", "validation plan is …",
# nor a bold label of a duty, "**Plan:** define a plan for …")
_PLAN = re.compile(_CLAUSE + r"(?<![*_])(?:(?:new|so|the)\s+)?[Pp]lan\s*(?::|\bis\b)\s*(?=\S)")
# a plan moved, its thing named before: "**pg16 cutover moved** from sat 21 nov to sat 2026-12-05", "spooler at DAV:
# officially pushing to Jan", "Historian upgrade — moved from 24 Feb to w/c 11 May", "Postponed until after gold"
# (not a delivery "slipping to 9 Oct": the vendor's news)
_MOVED_TO = re.compile(r"(?=[mprd])\b(?:moved|moves|pushed|pushing|postponed|rescheduled|deferred)" + _MARKS + r"\s+(?:(?:again|back|out|officially)\s+)?"
                       r"(?:from\s+(?P<y>[^,;.()]{2,24}?)\s+)?(?:to|till?|until)\s+" + _MARKS + r"(?:the\s+|after\s+)?" + _DATE, re.I)
# a thing kept for a while in more words: "continues till end of Jan", "leave the AP on port 31 for now", "leaving it
# till Sat 28 Feb then delete", "holding Norrvik kiosks on 2.8.1 until they fix it", "hold until after freeze" (not "on
# leave till Wed", "hold feed button until 1 flash", a vendor's "continues to be available … until retirement")
# a date kept: "NR cutover STAYS 3/28", "April stays on the 5th so nobody gets surprised"
_STAYS_DATE = re.compile(r"(?=[sr])\b(?:stays?|remains?)\s+(?:on\s+(?:the\s+)?)?" + _MARKS + _DATE, re.I)
_KEPT_MORE = re.compile(r"(?=[clh])(?:\b(?:continues|continue|continuing)\s+(?=till?\b|until\b)|(?<!\bon\s)(?<!\()\b(?:leave|leaving)\s+(?!till?\b|until\b)\S"
                        r"|\bholding\s+(?:[\w.-]+\s+){1,3}?on\s+\S+|\bhold\s+(?=till?\b|until\b|for\s+now\b))"
                        r"[^.;:?!]{0,50}?\b(?:till?|until|for\s+now)\b", re.I)
# the risk or the limit taken: "no replay beyond what's unacked. Accepting that.", "PT staff use chat. Accepted risk"
_ACCEPTING = re.compile(r"(?:(?:^|(?<=[.;:—–])\s*)(?:accepting|accepted|we\s+accept)\s+(?:that|this|it)\s*(?:[.!]|$)|\baccepted\s+risk\b"
                        r"|(?:^|(?<=[.;:—–])\s*)accepting\s*[.!])", re.I)  # ("Dev's note (pasted 3/3): accepting.")
# the call made: "Dean made the call at 15:30 to switch …", "14:44 decision to roll back to 4.7.9" (a log's entry opening
# with its time), "nobody objected → doing it", an option marked "— chosen" / "(chosen)"; a new date: "new cutover date:
# **Sat 14 Nov**" (not a handbook's "if we decide to …": the word opens its clause or its entry)
_CALL = re.compile(r"(?:\bmade\s+the\s+call\b|(?:^|(?<=[.;:—–|])\s*)(?:\d{1,2}:\d{2}\s*[—–-]?\s*)?(?:decision|decided)\s+to\s+[a-z]"
                   r"|(?:→|->|\bso)\s*(?:we'?re\s+)?doing\s+it\b|(?:[—–(|]|\s-)\s*" + _MARKS + r"chosen\b"
                   r"|\bnew\s+(?:[\w-]+\s+){0,2}(?:date|target|deadline)\s*(?::|\bis\b|=)\s*\S)", re.I)
# a word of assent, then an order, a verb and what it takes: "fine, sign the month-to-month for April then
# Ellie", "np. pull them out of fx-big", "Dave: yes just order it", "Helen: yes, do it, but …", "fine. do it before
# freeze." (not "ok so the printer dropped …", "fine since the fix", "yep it's there": no verb's place; not a
# task under way, "ok resubmitting with 2 gpus", nor a past, "yes, deployed it")
_ASSENT_ORDER = re.compile(r"(?=[oyfsnagp👍])(?<![\w'’])(?:👍\s*)?(?:ok|okay|yes|yep|yeah|fine|sure|np|agreed|great|perfect|👍)[,.!:]*\s+(?:👍\s*)?(?:just\s+)?"
                           r"(?-i:(?P<verb>[a-z]{2,})\s+(?:it|them|the|a|an|this|that|these|those|all|our|my|with|[A-Z0-9@`*#]))", re.I)
# a thing put back or switched: "gfx-02 rolled back to v3.1 on 28 Sep as workaround", "12:55 rolled the plugin back
# to 8.6.1", "Switching standard to Latitude 7450", "fixing, switching it to "parcels_current"" (the writer's switch,
# opening its clause; not "staff switched to paper forms", a policy's "rolling back to an earlier version is not
# supported")
_SWITCHED = re.compile(r"\brolled\s+(?:[\w.'’-]+\s+){0,3}?back\s+to\b|(?:^|(?<=[.;:—–,])\s*)[Ss]witching\s+(?:[\w.'’-]+\s+){0,3}?to\b")
# a thing parked, the word closing its clause: "Wasabi parked. Revisit if …", "… a tablet for the cold store. parked"
_PARKED = re.compile(r"(?=p)\bparked\s*(?:[.!]|$)", re.I)
# (session 28, D) a person's choice or refusal: "Dana picked QR badges for K-2", "Olu says no, ignore", "Tom says
# leave it, not this quarter", "Marta says not this quarter, revisit in Q3" (not "picked them up", "Purple says no extra
# charge", "Helen said no before …", a pronoun's "They said no,": a vendor's answer as often); and a list item or a
# sentence closed by "no." of its own: "NetApp quoted $61,300 to extend 1 yr. no.", "… audit trail weak). No."
_NOT_PERSON = r"(?!(?:The|They|We|He|She|It|This|That|You|Who|Which|What|Everyone|Nobody|Someone)\b)"
_PERSON_CHOICE = re.compile(r"\b" + _NOT_PERSON + r"[A-Z][a-z]+\s+(?:picked|chose|selected|opted\s+for|settled\s+on)\s+(?!(?:\w+\s+){0,2}(?:up|out)\b)[\w\"'“]")
_REFUSED = re.compile(r"\b" + _NOT_PERSON + r"[A-Z][a-z]+\s+(?:says|said)\s+(?:no|not\s+(?:this|that|now|yet|until|till|before)\b[^,.;]{0,20}|leave\s+it)\s*(?:[,.;!—–]|$)")
_CLOSING_NO = re.compile(r"^(?=(?:\S+\s+){4}).*\S[.)]\s+(?:\*\*|__)?no(?:\*\*|__)?\s*[.!]\s*$", re.I)
# (session 30, D) a freeze set with its time, opening its clause: "Christmas change freeze: **14 Dec → 4 Jan**", "Soft
# freeze (no new features, fixes ok) from Nov 9.", "freeze on new Airflow DAGs starting 11/16" (not "before the freeze",
# "content freeze lifted", "Last year freeze ran 11/20 → 1/4"); a group's refusal, "we said no. staying on tarn."
_FREEZE = re.compile(r"(?:^|(?<=[.;:—–])\s*)(?:[\w-]+\s+){0,2}freeze(?:\s+(?:on|for)\s+[^.,;:()]{1,40}?)?\s*(?:\([^)]{0,60}\))?\s*[:=]?\s*"
                     + _MARKS + r"\s*(?:from|starting|until|till?|" + _DATE + r"|\d{4}-\d{2}-\d{2}|\d{1,2}(?:\s*[-–]\s*\d{1,2})?\s+" + _MONTH + ")", re.I)
_WE_REFUSED = re.compile(r"(?=w)\bwe\s+said\s+no\b", re.I)
# a choice told in the past, an assent confirmed: "we decided for EasyPost", "yes, Dave confirmed", "We are happy to accept …"
_WE_DECIDED = re.compile(r"(?=[wiyhgp])(?<!\bif\s)(?:\b(?:we|I)\s+(?:have\s+|'ve\s+|’ve\s+)?decided\s+(?:for|on|against)\b"
                         r"|\byes\b[,.!]?\s+(?-i:[A-Z][a-z]+)\s+confirmed\b|\b(?:happy|glad|pleased)\s+to\s+accept\b)", re.I)

MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("changed", _STRUCK), ("changed", _MOVED_NOTE), ("changed", _NOW_NOT), ("order", _ORDER), ("rejected", _REJECTED), ("not before", _NOT_BEFORE),
    ("rejected", _STRUCK_OFF), ("final", _FINAL), ("approved", _APPROVED), ("kept", _KEPT),
    ("changed", _MOVED_WHAT), ("changed", _SET_TO), ("changed", _NOW_WAS), ("changed", _WAS_MOVED), ("changed", _VALUE_FROM), ("changed", _MARKED_NOT), ("rejected", _CALLED_OFF), ("approved", _ASSENT),
    ("approved", _ACCEPTED), ("approved", _SIGNED), ("approved", _IT_IS),
    ("changed", _DATE_NOT), ("plan", _PLAN), ("changed", _MOVED_TO), ("kept", _KEPT_MORE), ("kept", _STAYS_DATE), ("rejected", _PARKED),
    ("approved", _ACCEPTING), ("decided", _CALL), ("order", _ASSENT_ORDER), ("changed", _SWITCHED),
    ("decided", _PERSON_CHOICE), ("rejected", _REFUSED), ("rejected", _CLOSING_NO), ("final", _FREEZE), ("rejected", _WE_REFUSED),
    ("decided", _WE_DECIDED))


# what each marker cannot match without, casefolded (most sentences hold none of these: the patterns,
# which try every position of a sentence, are tried only where they may match; the same answers)
_NEEDS: dict[re.Pattern[str], tuple[str, ...]] = {
    _STRUCK: ("~~",), _MOVED_NOTE: ("(",), _NOW_NOT: ("now",), _ORDER: ("go", "do", "leave", "hold"),
    _REJECTED: ("not", "overrul", "renew", "parked", "dropped", "scratch", "fix", " no", "\tno", "\nno"), _NOT_BEFORE: ("not",),
    _STRUCK_OFF: ("no", "cancel", "dropped"), _FINAL: ("stop", "exception", "now", "mean", "final"),
    _APPROVED: ("ok", "said"), _KEPT: ("stay", "kept", "keep", "hold", "leave"),
    _MOVED_WHAT: ("moved", "moving", "reschedul", "postponed"), _SET_TO: ("chang", "rais", "lower", "cut", "bump", "reduc", "increas", "extend", "upped", "renegotiat"), _MARKED_NOT: ("not",), _NOW_WAS: ("(was",), _WAS_MOVED: ("was",), _VALUE_FROM: ("->", "→"),
    _CALLED_OFF: ("not", "park"), _ASSENT: ("with", "w/", "by me", "yes", "ahead"), _ACCEPTED: ("accept", "agree"), _SIGNED: ("signed", "confirmed"),
    _IT_IS: ("it is", "the plan"),
    _DATE_NOT: ("not ", "instead of"), _PLAN: ("plan",), _MOVED_TO: ("moved", "moves", "pushed", "pushing", "postponed", "reschedul", "deferred"),
    _KEPT_MORE: ("continu", "leav", "hold"), _STAYS_DATE: ("stay", "remain"), _PARKED: ("parked",), _ACCEPTING: ("accept",),
    _CALL: ("made the call", "decision to", "decided to", "doing it", "chosen", "date:", "date is", "date =", "target:",
            "target is", "deadline:", "deadline is"),
    _SWITCHED: ("back to", "switching"),
    _PERSON_CHOICE: ("picked", "chose", "selected", "opted for", "settled on"),
    _REFUSED: ("says no", "said no", "says not", "said not", "says leave", "said leave"), _CLOSING_NO: (" no.", " no!", "no**", "no__"),
    _ASSENT_ORDER: ("ok", "yes", "yep", "yeah", "fine", "sure", "np", "agreed", "great", "perfect", "👍"),
    _FREEZE: ("freeze",), _WE_REFUSED: ("we said no",), _WE_DECIDED: ("decided", "confirmed", "to accept"),
}

_MARKERS_NEEDS = tuple((kind, pattern, _NEEDS[pattern]) for kind, pattern in MARKERS)
_HELD = Needles([needs for _, _, needs in _MARKERS_NEEDS])  # (all markers' words looked for in one scan)
_REJECTED_BIT = 1 << next(i for i, (_, pattern, _) in enumerate(_MARKERS_NEEDS) if pattern is _REJECTED)
# a date chosen over another is looked for where "not" or "instead of" stands right before a date (its pattern,
# which opens with the chosen date, would otherwise try every word of every sentence with a "not")
_GATES: dict[re.Pattern[str], re.Pattern[str]] = {
    _DATE_NOT: re.compile(r"(?=[nNi])\b(?:not|instead\s+of)\s+(?:the\s+|on\s+|in\s+)?" + _DATE, re.I),
    # (an order after a word of assent: the word opens the text or follows a stop, a colon or a dash)
    _ASSENT_ORDER: re.compile(r"[.;:—–]\s+(?:👍\s*)?(?:ok|okay|yes|yep|yeah|fine|sure|np|agreed|great|perfect|👍)[,.!:]*\s", re.I)}
# a tighter gate of the costlier markers, on the casefolded text: the words each cannot match without, in their
# order, spelt from their first letter so the engine skips to the letters they open with (the pattern itself,
# case-insensitive, with its lookbehinds and word boundaries, tries every position). Not used on a text with a
# dotted or dotless i ("İ", "ı"), the only letters a case-insensitive pattern matches that casefold to another
_FOLDED_GATES: dict[re.Pattern[str], re.Pattern[str]] = {
    _REJECTED: re.compile(r"not\s+(?:chosen|pursued|renewing|renewed|selected)|overruled|don'?t\s+renew|is\s+a\s+no"
                          r"|no\s+for\s+now|parked\s+(?:for\s+now|til|until)|dropped\s+(?:for\s+now|til|until)"
                          r"|stays\s+parked|scratch\s+that|won'?t\s+fix"),
    _CALLED_OFF: re.compile(r"not\s+(?:doing|happening|going|renewing|upgrading|pushing|proceeding|buying|switching"
                            r"|migrating|falling|now)|park\s"),
    _ASSENT: re.compile(r"ok(?:ay)?\s+(?:with|w/)|fine\s+(?:with|w/)|happy\s+(?:with|w/)|by\s+me|said\s+yes"
                        r"|go(?:ing)?\s+ahead|signed\s+(?:w/|with)"),
    _DATE_NOT: re.compile(r"not\s+(?:the\s+|on\s+|in\s+)?(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep"
                          r"|oct|nov|dec|\d|q[1-4]|w/c|wk)|instead\s+of\s+"),
    _MARKED_NOT: re.compile(r"\*\*,?\s+not\s"),
}
# (an order is case-sensitive: its gate reads the text as written)
_ORDER_GATE = re.compile(r"go\s+(?:for\s+it|(?:with\s+)?[A-Z0-9])|[Dd]o\s+(?:the\s+)?\d|[Ll]eave\s+it\s*[.!]|[Hh]old\s*[.!]")
_ASSENT_OPENS = re.compile(r"(?:👍\s*)?(?:ok|okay|yes|yep|yeah|fine|sure|np|agreed|great|perfect|👍)[,.!:]*\s", re.I)


_LAST_STOP = re.compile(r"[.!](?=\s+[^.!?]+[?:]$)")  # (the stop before a line's closing question or lead-in)


def marker(text: str) -> tuple[str, re.Match[str]] | None:
    """The first marker of a decision a sentence (marks kept) holds, with its match, or None."""
    stripped = text.rstrip(" *_")
    if stripped.endswith(("?", ":")):
        # a question decides nothing, a lead-in says what follows; the sentences before it on its line
        # may ("go-live is now **Sat 14 Nov**, not the 7th. Reasons:", "ok, go Acer. can you order?")
        before = _LAST_STOP.search(stripped)
        return marker(stripped[:before.start() + 1]) if before else None
    folded = text.casefold()
    gated = "ı" not in folded and "i̇" not in folded  # (`_FOLDED_GATES`)
    # the markers with a word they need in the text, in their order (a rejection's "no" after a space or
    # opening the sentence: "is a no", "no for now")
    held = _HELD.held(folded) | (_REJECTED_BIT if folded.startswith("no") else 0)
    while held:
        low = held & -held
        held ^= low
        kind, pattern, _ = _MARKERS_NEEDS[low.bit_length() - 1]
        if gated and pattern in _FOLDED_GATES and not _FOLDED_GATES[pattern].search(folded) \
                or pattern is _ORDER and not _ORDER_GATE.search(text):
            continue
        if pattern in _GATES and not (pattern is _ASSENT_ORDER and _ASSENT_OPENS.match(text) or _GATES[pattern].search(text)):
            continue
        for m in pattern.finditer(text):
            if pattern is _ASSENT_ORDER and not (ordered(m.group("verb")) and _CLAUSE_END.search(text[:m.start()])):
                continue
            if kind != "changed" or pattern is not _STRUCK or _changed(m):
                return kind, m
    return None


_CLAUSE_END = re.compile(r"(?:^|[.;:—–]\s+)$")  # (what stands before a clause's first word)


def _changed(m: re.Match[str]) -> bool:
    """A struck value and the value after it are a change where an arrow joins them or both are dates
    ("~~Thu 29 Oct~~ **Thu 12 Nov**"), not a crossed-out task with its note ("~~review footnote~~ done")."""
    if m.group("arrow"):
        return True
    when = re.compile(rf"^\W*(?:\w+\s+)?{_WHEN_WORD}", re.I)
    return bool(when.match(m.group("y"))) and bool(when.match(m.group("x")))


def claims(doc: Document, us: list[Unit], decided: set[int]) -> list[Claim]:
    """The decisions the words of the document's sentences and list items mark (not on a line another
    rule gave a decision: `decided`), each with the old value it replaces as its *alternative*."""
    out: list[Claim] = []
    for u in us:
        if u.kind == "row" or u.first in decided or len(u.plain) > MAX_STATEMENT_CHARS:
            continue
        if u.kind == "item" and u.raw.lstrip().lower().startswith("[x]"):
            continue  # a done item struck through is done
        for first, last, text in _pieces(doc, u):
            if first in decided or len(text.split()) < 2:
                continue
            found = marker(text)
            if found is None or text not in joined(doc, first, last):
                continue
            e = ev(doc, first, last)
            out.append(Claim(doc.title, "decision", text, "", "fact", "statement", e))
            kind, m = found
            if kind == "changed" and "y" in m.re.groupindex and (old := (m.group("y") or "").strip(" *_")):
                out.append(Claim(doc.title, "alternative", old, "", "fact", "statement", e))
            decided.add(first)
    return out


# a table cell that decides: "decided to fail over to head02", "Decision: don't try to force the array back"
_CELL_DECISION = re.compile(r"^(?:\w+\s+)?(?:decision\s*(?::|to\b|for\b)|decided\s*(?::|to\b|for\b|on\b)|decide\s+to\b)", re.I)


def row_claims(doc: Document, rows: list[Unit], decided: set[int]) -> list[Claim]:
    """The decisions of table rows: a row of a table under a decisions heading (the row its value), a cell
    that opens with the word ("| 17:10 | decided to fail over … |") or rejects ("not renewing", "don't
    renew", "CANCELLED 13 Nov - …"), the cell as written its value."""
    out: list[Claim] = []
    kinds = agenda.section_kinds(doc)
    for u in rows:
        if u.first in decided:
            continue
        line = doc.lines[u.first - 1]
        if kinds.get(u.block) == agenda.DECISION and cited_lines_contain([line], u.plain):
            # a row of a table under a decisions heading is a part of what was decided ("| Tool | restic 0.17
            # on a timer |" under "## Decision"), the row as written its value
            out.append(Claim(doc.title, "decision", u.plain, "", "fact", "statement", ev(doc, u.first, u.first)))
            decided.add(u.first)
            continue
        for cell in u.plain.split(" | "):
            found = marker(cell)
            if (_CELL_DECISION.match(cell) or found and found[0] == "rejected") and len(cell.split()) >= 2 and cell in line:
                out.append(Claim(doc.title, "decision", cell, "", "fact", "statement", ev(doc, u.first, u.first)))
                decided.add(u.first)
                break
    return out


# a line of its own: a field ("owner: ~~Kwame~~ → **Piotr**", "**when:** …") or a chat turn's header
_FIELD_LINE = re.compile(r"^(?:\*\*|__)?[A-Za-z][\w /&'’-]{0,30}(?:\*\*|__)?\s*:(?:\*\*|__)?\s")


def _pieces(doc: Document, u: Unit) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of what a sentence says: the sentence, or, where it runs over lines
    that each say a thing of their own (fields on lines of their own, a chat turn's header and its
    words), each such line."""
    if u.last == u.first:
        return [(u.first, u.last, u.plain)]
    split = commitments.pieces(doc, u)
    if len(split) > 1 or split[0][0] != u.first or split[0][1] != u.last:
        return split
    lines = [line.strip() for line in doc.lines[u.first - 1:u.last]]
    if all(_FIELD_LINE.match(line) for line in lines if line):
        return [(u.first + k, u.first + k, line) for k, line in enumerate(lines) if line]
    return [(u.first, u.last, u.plain)]
