"""The action registry: one list of (id, key, action, description, group, scope) that feeds the
bindings of every screen, the footer, the `?` help screen, the command palette and user keymaps.

A user rebinds by binding id in `config.toml`:

    [keys]
    compile = "c"          # one key
    quit = "q,f10"         # or several, comma-separated

Keys must survive ssh and tmux: letters, digits, punctuation, arrows, F-keys and a few named keys
(enter, escape, tab, shift+tab, space, home, end, pageup, pagedown). Anything with ctrl, alt, meta or
super is refused with a clear message, and so is a key bound twice on one screen.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual.binding import Binding

from kctui import paths

# scopes: where a binding lives
APP = "app"  # the App: everywhere
MAIN = "main"  # the main screen with the four panes
DETAIL = "detail"  # the review detail screen
DIALOG = "dialog"  # the yes/no confirm dialog
READER = "reader"  # the search screen and the page view
PAGES = "pages"  # the pages screen: every compiled page of a base
PAGE = "page"  # one page opened from the pages screen
POLICY = "policy"  # the policy screen (a form)
BRIEFS = "briefs"  # the briefs screen: the passes of a base
ASK = "ask"  # the ask screen: a question to a base, its cited answer
SCOPES = (APP, MAIN, DETAIL, DIALOG, READER, PAGES, PAGE, POLICY, BRIEFS, ASK)
# where a scope's keys apply, in words (the help screen says why a key does not apply here)
SCOPE_WORDS = {MAIN: "on the main screen", DETAIL: "in a review item", DIALOG: "in a yes/no question",
               READER: "in search", PAGES: "in the pages screen", PAGE: "in a page opened from the pages screen",
               POLICY: "in the policy screen", BRIEFS: "in the briefs screen", ASK: "in the ask screen"}
# The help's title: the screen it was opened on, by its first key scope
SCREEN_WORDS = {MAIN: "main screen", DETAIL: "review item", DIALOG: "yes/no question", READER: "search",
                PAGES: "pages screen", PAGE: "page", POLICY: "policy screen", BRIEFS: "briefs screen",
                ASK: "ask screen"}


def elsewhere(scope: str) -> str:
    """Why a key of another screen does not apply now: where it does, said as a restriction."""
    return "only " + SCOPE_WORDS.get(scope, "elsewhere")


@dataclass(frozen=True)
class KeyAction:
    id: str
    key: str  # Textual key names, comma-separated
    action: str
    description: str  # short: the footer
    help: str  # one sentence: the help screen and the command palette
    group: str
    scopes: tuple[str, ...] = (MAIN,)
    show: bool = True  # in the footer
    palette: bool = True  # offered in the command palette


REGISTRY: tuple[KeyAction, ...] = (
    # panes and movement
    KeyAction("pane-queue", "1", "focus_pane('queue')", "Queue", "Show the queue: bases and jobs.", "Panes", show=False),
    KeyAction("pane-running", "2", "focus_pane('running')", "Running", "Show the running job's checklist and log.",
              "Panes", show=False),
    KeyAction("pane-review", "3", "focus_pane('review')", "Review", "Show held updates and conflicts.", "Panes",
              show=False),
    KeyAction("pane-brief", "4", "focus_pane('brief')", "Brief", "Show the selected job's change brief.", "Panes",
              show=False),
    KeyAction("next-pane", "tab", "cycle(1)", "Next", "Move to the next pane (the queue has two tables).", "Panes",
              show=False, palette=False),
    KeyAction("prev-pane", "shift+tab", "cycle(-1)", "Previous", "Move to the previous pane.", "Panes", show=False,
              palette=False),
    KeyAction("move-down", "j", "move(1)", "Down", "Move down (the arrow keys work too).", "Panes", show=False,
              palette=False, scopes=(MAIN, PAGES, PAGE, BRIEFS)),
    KeyAction("move-up", "k", "move(-1)", "Up", "Move up (the arrow keys work too).", "Panes", show=False,
              palette=False, scopes=(MAIN, PAGES, PAGE, BRIEFS)),
    KeyAction("open", "enter", "open", "Open", "Open the selected row: a review item's detail, a base's jobs, "
              "a job's checklist, a page, a linked page, a pass's brief.", "Panes", show=False, palette=False,
              scopes=(MAIN, PAGES, PAGE, BRIEFS)),
    KeyAction("back", "escape", "back", "Back", "Go back: close a screen, clear the filter, return to the queue.",
              "Panes", scopes=(MAIN, DETAIL, READER, PAGES, PAGE, POLICY, BRIEFS, ASK), show=False, palette=False),
    KeyAction("filter", "slash", "filter", "Filter", "Filter the rows of the current pane by text.", "Panes",
              scopes=(MAIN, PAGES)),
    # the queue
    KeyAction("compile", "c", "compile", "Compile", "Compile the selected knowledge base now.", "Queue"),
    KeyAction("dry-run", "D", "dry_run", "Dry run", "Run a whole pass of the selected base and show its change "
              "brief without promoting, filing review items or recording anything.", "Queue"),
    KeyAction("cancel", "x", "cancel", "Cancel", "Cancel the selected job (asks first).", "Queue"),
    KeyAction("clear-pause", "u", "clear_pause", "Unpause",
              "Clear the selected base's bulk-change pause (shows the change counts, asks first).", "Queue"),
    KeyAction("toggle-policy", "p", "toggle_policy", "Auto",
              "Switch the selected base between smart_auto and manual compilation.", "Queue",
              show=False),  # the policy screen (o) shows it in the footer's place; p works as before
    KeyAction("search", "s", "search", "Search", "Search the selected base's compiled wiki and open a page: its "
              "status, claims with citations and revisions.", "Queue"),
    KeyAction("ask", "i", "ask", "Ask", "Ask the selected base a question: the answer streams in citing its pages "
              "and source lines (verified, flagged pages flagged; extracted when no model is set); k keeps it.",
              "Queue"),
    KeyAction("pages", "g", "pages", "Pages", "Browse every compiled page of the selected base by class, with "
              "its status; read one, follow its links, see its claims' cited lines, revisions and open review "
              "items.", "Queue"),
    KeyAction("policy", "o", "policy", "Policy", "See and change the selected base's compilation and trust policy "
              "(autonomy, never-auto guards, min-confidence, stale days, extractor, link style).", "Queue"),
    KeyAction("briefs", "v", "briefs", "Briefs", "The selected base's passes, newest first: open any brief in "
              "full; the running pass's checklist, live.", "Queue"),
    KeyAction("add-workspace", "w", "add_workspace", "Workspace", "Add a workspace folder to the monitored set.",
              "Queue", show=False),
    KeyAction("new-kb", "b", "new_kb", "New base", "Create a new knowledge base in a workspace.", "Queue",
              show=False),
    # the review queue
    KeyAction("approve", "a", "resolve('approve')", "Approve", "Approve the selected held update.", "Review",
              scopes=(MAIN, DETAIL)),
    KeyAction("reject", "r", "resolve('reject')", "Reject", "Reject the selected held update.", "Review",
              scopes=(MAIN, DETAIL)),
    KeyAction("use-new", "n", "resolve('use_new')", "Use new", "Resolve the conflict with the new source's value.",
              "Review", scopes=(MAIN, DETAIL)),
    KeyAction("keep", "e", "resolve('keep')", "Keep", "Resolve the conflict by keeping the existing page.", "Review"),
    KeyAction("keep-here", "K", "resolve('keep')", "Keep", "Resolve the conflict by keeping the existing page (in a "
              "review item, where e opens your editor).", "Review", scopes=(DETAIL,)),
    KeyAction("dismiss", "d", "resolve('dismiss')", "Dismiss", "Dismiss the conflict without changing the page.",
              "Review", scopes=(MAIN, DETAIL)),
    KeyAction("mark", "space", "mark", "Mark", "Mark or unmark the selected held update and move to the next row; "
              "a / r then approve or reject every marked one in one promotion (asks first, with the counts).", "Review"),
    KeyAction("approve-matching", "A", "bulk('approve')", "Approve all",
              "Approve every open held update matching the review pane's filter (asks first, with the counts).",
              "Review", show=False),
    KeyAction("reject-matching", "R", "bulk('reject')", "Reject all",
              "Reject every open held update matching the review pane's filter (asks first, with the counts).",
              "Review", show=False),
    KeyAction("undo", "z", "undo", "Undo", "Undo the last decision of this session (again: the one before): the "
              "pages' previous revisions restored through promotion, the item open again.", "Review",
              scopes=(MAIN, DETAIL)),
    KeyAction("next-unread", "N", "next_unread", "Next unread", "Open the next review item nobody has opened yet, "
              "across bases (the review pane counts them: 12 unread / 40).", "Review", scopes=(MAIN, DETAIL)),
    # a review item opened: its hunks, the diff, your editor
    KeyAction("mark-hunk", "space", "mark_hunk", "Mark hunk", "Mark or unmark the current hunk; a / r then act on "
              "the marked hunks (the others get the opposite decision).", "Review item", scopes=(DETAIL,)),
    KeyAction("next-hunk", "right_square_bracket", "hunk(1)", "Next hunk", "Move to the next hunk (a / r then act "
              "on it when nothing is marked).", "Review item", scopes=(DETAIL,), show=False),
    KeyAction("prev-hunk", "left_square_bracket", "hunk(-1)", "Previous hunk", "Move to the previous hunk.",
              "Review item", scopes=(DETAIL,), show=False),
    KeyAction("diff-view", "s", "toggle_diff", "Split/unified", "Show the page diff side by side or as one column "
              "(− / + markers, changed words highlighted).", "Review item", scopes=(DETAIL,)),
    KeyAction("editor", "e", "open_outside('editor')", "Editor", "Open the current hunk's cited source (else the "
              "page) at its line in $EDITOR; the app resumes where it was.", "Review item", scopes=(DETAIL,)),
    KeyAction("pager", "E", "open_outside('pager')", "Pager", "Open the current hunk's cited source (else the "
              "page) in $PAGER.", "Review item", scopes=(DETAIL,), show=False),
    # the app
    KeyAction("help", "question_mark", "help", "Help", "Show every key and whether it applies now.", "App",
              scopes=(APP,)),
    KeyAction("palette", "f2", "command_palette", "Commands", "Open the command palette.", "App", scopes=(APP,),
              show=False, palette=False),
    KeyAction("quit", "q", "quit", "Quit", "Quit the app (asks first while a job runs).", "App", scopes=(APP,)),
    # a page opened from the pages screen: its sections
    KeyAction("page-text", "t", "section('text')", "Text", "Show the page's text, rendered.", "Page",
              scopes=(PAGE,)),
    KeyAction("page-claims", "c", "section('claims')", "Claims", "Show the page's claims, each with the source "
              "lines it cites.", "Page", scopes=(PAGE,)),
    KeyAction("page-revisions", "v", "section('revisions')", "Revisions", "Show the page's revisions, newest first.",
              "Page", scopes=(PAGE,)),
    KeyAction("page-links", "l", "section('links')", "Links", "Show the pages this page links to; enter opens one.",
              "Page", scopes=(PAGE,)),
    KeyAction("page-review", "i", "section('review')", "Review items", "Show the page's open review items; enter "
              "opens one to resolve it.", "Page", scopes=(PAGE,)),
    KeyAction("undo-page", "z", "undo_page", "Undo decision", "Undo the latest review decision that wrote this "
              "page, even one older than the session: its previous revision restored through promotion, its item "
              "reopened (refused if the page changed since).", "Page", scopes=(PAGE,)),
    # the policy screen
    KeyAction("policy-save", "f5", "save", "Save", "Check every field with the rules of `kctui kb policy` and save "
              "the policy (a bad value is named next to its field and nothing is saved).", "Policy",
              scopes=(POLICY,)),
    KeyAction("policy-compile", "f6", "compile_now", "Compile now", "Compile this knowledge base now (a manual "
              "compile).", "Policy", scopes=(POLICY,)),
    KeyAction("policy-remove-guard", "delete", "remove_guard", "Remove guard", "Remove the selected never-auto "
              "guard from the form (saved with F5).", "Policy", scopes=(POLICY,)),
    # the ask screen
    KeyAction("ask-keep", "k", "keep", "Keep", "Keep the answer as an output page under wiki/outputs/ (never read "
              "back as evidence; marked stale when what it cites changes).", "Ask", scopes=(ASK,)),
    KeyAction("ask-citations", "f4", "citations", "Citations", "Move to the answer's citations; enter opens one: a "
              "page at its claims, a source at its lines.", "Ask", scopes=(ASK,)),
    # the confirm dialog
    KeyAction("confirm-yes", "y", "answer(True)", "Yes", "Confirm the question.", "Dialogs", scopes=(DIALOG,),
              palette=False),
    KeyAction("confirm-no", "n", "answer(False)", "No", "Decline the question (escape too).", "Dialogs",
              scopes=(DIALOG,), palette=False),
)

BY_ID: dict[str, KeyAction] = {k.id: k for k in REGISTRY}

# the action name without its arguments -> registry entries (for "why does this key not apply")
ACTION_NAMES: dict[str, list[KeyAction]] = {}
for _k in REGISTRY:
    ACTION_NAMES.setdefault(_k.action.split("(", 1)[0], []).append(_k)


def bindings(scope: str) -> list[Binding]:
    """The Textual bindings of one scope, each with its registry id (so a keymap can move it)."""
    return [Binding(k.key, k.action, k.description, show=k.show, id=k.id, tooltip=k.help)
            for k in REGISTRY if scope in k.scopes]


# -- keymap overrides ---------------------------------------------------------------------------------

class KeymapError(Exception):
    """The `[keys]` table of the config file is invalid; one line for a person."""


NAMED_KEYS = frozenset({
    "enter", "escape", "tab", "shift+tab", "space", "up", "down", "left", "right", "home", "end", "pageup",
    "pagedown", "insert", "delete", "backspace",
})
CHAR_NAMES = {  # Textual's names for punctuation keys
    "?": "question_mark", "/": "slash", "!": "exclamation_mark", "@": "at", "#": "number_sign",
    "$": "dollar_sign", "%": "percent_sign", "&": "ampersand", "*": "asterisk", "+": "plus", "-": "minus",
    "=": "equals_sign", ".": "full_stop", ",": "comma", ":": "colon", ";": "semicolon", "<": "less_than_sign",
    ">": "greater_than_sign", "[": "left_square_bracket", "]": "right_square_bracket", "_": "underscore",
    "'": "apostrophe", '"': "quotation_mark", "\\": "backslash", "|": "vertical_line", "~": "tilde",
    "^": "circumflex_accent", "(": "left_parenthesis", ")": "right_parenthesis", "{": "left_curly_bracket",
    "}": "right_curly_bracket", "`": "grave_accent",
}
_FKEY = re.compile(r"^f([1-9]|1[0-9]|2[0-4])$")
_FORBIDDEN = ("ctrl+", "alt+", "meta+", "super+", "hyper+", "cmd+")


def normalise_key(raw: str) -> str:
    """One key as Textual names it; KeymapError when it is not one kctui allows."""
    key = raw.strip()
    if not key:
        raise KeymapError("an empty key")
    low = key.lower()
    if any(low.startswith(p) or f"+{p}" in low for p in _FORBIDDEN):
        raise KeymapError(f"'{key}' uses ctrl/alt/meta, which do not survive ssh and tmux reliably; "
                          "use a letter, digit, arrow or F-key")
    if len(key) == 1:
        if key.isascii() and key.isalnum():
            return key
        if key in CHAR_NAMES:
            return CHAR_NAMES[key]
        raise KeymapError(f"'{key}' is not a key kctui can bind")
    if low in NAMED_KEYS or _FKEY.match(low) or low in CHAR_NAMES.values():
        return low
    if low == "esc":
        return "escape"
    raise KeymapError(f"'{key}' is not a key kctui can bind (letters, digits, punctuation, arrows, F-keys, "
                      "enter, escape, tab, space)")


def validate_keymap(table: object) -> dict[str, str]:
    """The `[keys]` table → {binding id: "k1,k2"}; KeymapError naming the first problem."""
    keymap, problems = keymap_with_problems(table)
    if problems:
        raise KeymapError(problems[0])
    return keymap


def keymap_with_problems(table: object) -> tuple[dict[str, str], list[str]]:
    """The `[keys]` table → (its valid rebinds, one line per entry refused). An entry is refused alone:
    an unknown id, a key kctui cannot bind, a key that answers a yes/no question (a stray `y` after a
    question would do the action), or a key another binding of one screen holds; the others stand."""
    if not isinstance(table, dict):
        return {}, ["[keys] must be a table of binding id = \"key\""]
    out: dict[str, str] = {}
    problems: list[str] = []
    dialog_keys = {key: k.id for k in REGISTRY if DIALOG in k.scopes for key in effective_keys(k)}
    for bid, value in table.items():
        try:
            entry = keymap_entry(bid, value)
        except KeymapError as exc:
            problems.append(str(exc))
            continue
        own = set(effective_keys(BY_ID[bid]))
        taken = [key for key in entry.split(",") if key in dialog_keys and key not in own and DIALOG not in BY_ID[bid].scopes]
        if taken:
            problems.append(f"[keys] {bid}: '{display_key(taken[0])}' answers a yes/no question "
                            f"({dialog_keys[taken[0]]}); a stray key press after a question would {bid}")
            continue
        out[bid] = entry
    while True:  # a clash drops the user's entry that makes it, and is checked again without it
        try:
            for scope in SCOPES:
                check_no_clash(scope, out)
            return out, problems
        except KeymapClash as exc:
            drop = exc.ids[1] if exc.ids[1] in out else exc.ids[0]
            problems.append(str(exc))
            out.pop(drop, None)
            if drop not in table:  # (cannot happen: defaults never clash)
                return out, problems


class KeymapClash(KeymapError):
    def __init__(self, message: str, ids: tuple[str, str]) -> None:
        super().__init__(message)
        self.ids = ids


def keymap_entry(bid: object, value: object) -> str:
    """One `binding id = "k1,k2"` (or a list of keys) of the table → "k1,k2", each key as Textual names it."""
    if bid not in BY_ID:
        known = ", ".join(sorted(BY_ID))
        raise KeymapError(f"[keys] '{bid}' is not a binding id (known ids: {known})")
    if isinstance(value, list):
        value = ",".join(str(v) for v in value)
    if not isinstance(value, str):
        raise KeymapError(f"[keys] {bid} must be a string such as \"c\" or \"c,f5\"")
    try:
        keys = [normalise_key(k) for k in value.split(",")]
    except KeymapError as exc:
        raise KeymapError(f"[keys] {bid}: {exc}") from None
    return ",".join(dict.fromkeys(keys))


def check_no_clash(scope: str, keymap: dict[str, str]) -> None:
    """No key may do two things on one screen: the keys of `scope`'s bindings and, on every screen but
    the app's own, the app-wide ones."""
    seen: dict[str, str] = {}
    for k in REGISTRY:
        if scope not in k.scopes and not (scope != APP and APP in k.scopes):
            continue
        for key in effective_keys(k, keymap):
            if key in seen and seen[key] != k.id:
                raise KeymapClash(f"[keys] '{display_key(key)}' is bound to both {seen[key]} and {k.id}",
                                  (seen[key], k.id))
            seen[key] = k.id


def effective_keys(k: KeyAction, keymap: dict[str, str] | None = None) -> list[str]:
    raw = (keymap or {}).get(k.id, k.key)
    return [normalise_key(x) if len(x.strip()) == 1 else x.strip() for x in raw.split(",") if x.strip()]


def load_keymap(config_path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """(keymap, error message or None). A bad table gives the defaults and one message."""
    path = config_path or paths.config_file()
    try:
        if not path.exists():
            return {}, None
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, f"cannot read {path}: {exc}; using the default keys"
    if "keys" not in data:
        return {}, None
    keymap, problems = keymap_with_problems(data["keys"])
    if not problems:
        return keymap, None
    rest = ("; the other rebinds in [keys] are in effect" if keymap else "; using the default keys")
    return keymap, f"{path}: " + "; ".join(problems) + rest


_DISPLAY = {"question_mark": "?", "slash": "/", "escape": "esc", "enter": "enter", "shift+tab": "shift+tab",
            "up": "↑", "down": "↓", "left": "←", "right": "→"}


def display_key(key: str) -> str:
    if key in _DISPLAY:
        return _DISPLAY[key]
    for ch, name in CHAR_NAMES.items():
        if name == key:
            return ch
    return key.upper() if _FKEY.match(key) else key


def keys_text(k: KeyAction, keymap: dict[str, str] | None = None) -> str:
    return " ".join(display_key(x) for x in effective_keys(k, keymap))


def key_to_id(scope: str, keymap: dict[str, str] | None = None) -> dict[str, KeyAction]:
    """Key → registry entry for one scope (after the user's keymap)."""
    out: dict[str, KeyAction] = {}
    for k in REGISTRY:
        if scope in k.scopes:
            for key in effective_keys(k, keymap):
                out.setdefault(key, k)
    return out
