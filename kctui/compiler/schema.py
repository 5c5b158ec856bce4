"""The base's schema file (issue 16; seed 004's `CLAUDE.md`): `SCHEMA.md`, else `CLAUDE.md`, else
`AGENTS.md`, at the base's root beside `sources/` (the first found wins). It describes the page
classes, their sections and the base's rules. The model-backed extractor puts it into every prompt
(kctui.compiler.llm.prompt); the built-in extractor honours which classes exist.

The format is Markdown; what is parsed:

- a level-2 heading naming a page class — `## Sources`, `## Concepts`, `## Entities` (case does not
  matter; `Source pages`, `Concept`, … too) — opens that class's section. When the file has at least
  one class section, the classes listed are the ones that exist: the built-in extractor makes no
  concept pages without `## Concepts`, no entity pages without `## Entities`. Source pages always
  exist (every claim cites through one).
- inside a class section, an optional line `Sections: Summary · Key Claims · …` (names separated by
  `·`, `,`, `;` or `|`) names that class's sections; they are given to the model as the sections to
  fill. (The built-in compiler's page layout is the wiki format's, wiki.md; it does not rename them.)
- a level-2 heading `## For <glob>` (the glob may be in backquotes: ``## For `runbooks/**` ``) opens a
  scoped section: it is sent only with the sources whose path under `sources/` matches the glob
  (`fnmatch`, `**` matching any depth). Editing it recompiles only those sources' chunks.
- everything else (text before the first level-2 heading, other headings such as `## Rules`) is
  general: it goes with every prompt.

Read safely: never through a symbolic link, a regular file only, at most 32 KiB, UTF-8. A file that is
there but unusable (one of those, a class listed twice, an empty `Sections:` line, a `## For` without a
glob) fails closed: nothing of it is used, the embedded default stands, and the pass's brief carries a
one-line warning naming the file and the reason.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_NAMES = ("SCHEMA.md", "CLAUDE.md", "AGENTS.md")
MAX_SCHEMA_BYTES = 32 * 1024
CLASSES = ("source", "concept", "entity")
_CLASS_WORDS = {"source": "source", "sources": "source", "source pages": "source", "source page": "source",
                "concept": "concept", "concepts": "concept", "concept pages": "concept", "concept page": "concept",
                "entity": "entity", "entities": "entity", "entity pages": "entity", "entity page": "entity"}
_H2 = re.compile(r"^##\s+(.+?)\s*#*\s*$")
_FOR = re.compile(r"^for\s+`?([^`]*)`?$", re.I)
_SECTIONS = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?sections(?:\*\*)?\s*:(?:\*\*)?\s*(.*)$", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")

DEFAULT_SCHEMA = """# Wiki schema (kctui's default)

Three page classes. Every claim cites the numbered lines it came from.

## Sources
One page per source file: what the document says, as atomic claims with their values copied exactly.
Sections: Summary · Key Claims · Concepts Introduced or Reinforced · Entities Mentioned · Open Questions Raised

## Concepts
One page per idea, method, framework or term the sources define or rely on.
Sections: Definition · Why It Matters · Related Concepts · Related Entities · Sources

## Entities
One page per person, company, product, tool, library, project or technology.
Sections: Description · Relevance · Key Positions/Products/Claims · Related Concepts · Related Entities · Sources
"""


class SchemaError(ValueError):
    """The schema file is unusable; the message is one line."""


@dataclass(frozen=True)
class Scoped:
    glob: str
    text: str

    def applies(self, path: str) -> bool:
        return _match(path, self.glob)


@dataclass(frozen=True)
class Schema:
    """A parsed schema. `name` is the file it came from ("" for the embedded default); `problem` is the
    one-line reason a file that was found is not used (then this is the default)."""

    text: str
    general: str
    scoped: tuple[Scoped, ...] = ()
    classes: frozenset[str] = frozenset(CLASSES)
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    name: str = ""
    problem: str = ""

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()

    def text_for(self, path: str) -> str:
        """What a prompt about the source `path` carries: the general text and the scoped sections that
        apply to it, in the file's order."""
        parts = [self.general.strip()] + [s.text.strip() for s in self.scoped if s.applies(path)]
        return "\n\n".join(p for p in parts if p)

    def describe(self) -> str:
        """One line for `kctui kb show`."""
        if not self.name:
            return "embedded default" + (f" ({self.problem})" if self.problem else "")
        classes = ", ".join(c for c in CLASSES if c in self.classes)
        scoped = f", {len(self.scoped)} scoped section{'s' if len(self.scoped) != 1 else ''}" if self.scoped else ""
        return f"{self.name} (sha256 {self.digest[:12]}; classes {classes}{scoped})"


def _match(path: str, glob: str) -> bool:
    if fnmatch.fnmatchcase(path, glob):
        return True
    if "**/" in glob:  # `a/**/b` also matches `a/b`
        return fnmatch.fnmatchcase(path, glob.replace("**/", ""))
    return False


@dataclass
class _Parts:
    """A schema file as it is read: its general lines, its scoped sections (glob, lines), the classes it
    lists and their sections, the lines being gathered and the class section being read."""

    name: str
    general: list[str] = field(default_factory=list)
    scoped: list[tuple[str, list[str]]] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    current: list[str] = field(init=False)  # where the next line goes: the general lines until a heading says
    cls: str | None = None

    def __post_init__(self) -> None:
        self.current = self.general

    def heading(self, title: str, n: int) -> None:
        """A level-2 heading: a class section, a `## For <glob>` section, or general text."""
        self.cls = _CLASS_WORDS.get(title.casefold())
        if self.cls is not None:
            if self.cls in self.classes:
                raise SchemaError(f"{self.name}: line {n}: the {self.cls} class is described twice")
            self.classes.append(self.cls)
            self.current = self.general
        elif (m := _FOR.match(title)) is not None:
            glob = m.group(1).strip()
            if not glob or len(glob) > 200:
                raise SchemaError(f"{self.name}: line {n}: `## For` needs a glob of the source paths it applies to")
            self.scoped.append((glob, []))
            self.current = self.scoped[-1][1]
        else:
            self.current = self.general

    def sections_line(self, cls: str, listed: str, n: int) -> None:
        """A class section's `Sections: A · B · …` line."""
        names = tuple(s.strip(" *`") for s in re.split(r"[·,;|]", listed) if s.strip(" *`"))
        if not names:
            raise SchemaError(f"{self.name}: line {n}: an empty `Sections:` line")
        if any(len(s) > 80 for s in names):
            raise SchemaError(f"{self.name}: line {n}: a section name longer than 80 characters")
        self.sections[cls] = names


def parse_schema(text: str, name: str = "SCHEMA.md") -> Schema:
    """A `Schema` from the text of a schema file; `SchemaError` (one line) when it is unusable."""
    parts = _Parts(name)
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _H2.match(line)
        if heading:
            parts.heading(" ".join(heading.group(1).split()), n)
        elif parts.cls is not None and not fenced and (m := _SECTIONS.match(line)) is not None:
            parts.sections_line(parts.cls, m.group(1), n)
        parts.current.append(line)
    return Schema(text=text, general="\n".join(parts.general).strip() + "\n",
                  scoped=tuple(Scoped(g, "\n".join(lines).strip()) for g, lines in parts.scoped),
                  classes=frozenset(parts.classes) | {"source"} if parts.classes else frozenset(CLASSES),
                  sections=parts.sections, name=name)


DEFAULT = parse_schema(DEFAULT_SCHEMA, "")


def _read(path: Path, name: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise SchemaError(f"{name}: is a symbolic link; it is not read") from None
        raise SchemaError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SchemaError(f"{name}: is not a regular file")
        chunks, size = [], 0
        while size <= MAX_SCHEMA_BYTES:
            data = os.read(fd, MAX_SCHEMA_BYTES + 1 - size)
            if not data:
                break
            chunks.append(data)
            size += len(data)
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_SCHEMA_BYTES:
        raise SchemaError(f"{name}: larger than {MAX_SCHEMA_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SchemaError(f"{name}: not UTF-8") from None


def find_schema(kb_root: Path | str) -> str | None:
    """The name of the schema file in force (the first of SCHEMA.md, CLAUDE.md, AGENTS.md there)."""
    root = Path(kb_root)
    return next((n for n in SCHEMA_NAMES if os.path.lexists(root / n)), None)


def load_schema(kb_root: Path | str) -> Schema:
    """The schema of the base at `kb_root` (the folder holding `sources/`): its file's, or the embedded
    default when there is none or the one there is unusable (`problem` then says why)."""
    name = find_schema(kb_root)
    if name is None:
        return DEFAULT
    try:
        return parse_schema(_read(Path(kb_root) / name, name), name)
    except SchemaError as exc:
        return Schema(DEFAULT.text, DEFAULT.general, DEFAULT.scoped, DEFAULT.classes, DEFAULT.sections,
                      name="", problem=str(exc))


def schema_version(version: str, schema: Schema) -> str:
    """The pass's actor (`generated.by`) with the schema file in force: a changed schema re-reads every
    source once (the reply cache answers the chunks it does not affect). The default adds nothing."""
    return f"{version} schema-{schema.digest[:12]}" if schema.name else version


def classes_version(version: str, schema: Schema) -> str:
    """The built-in pass's actor with the page classes in force, when the schema leaves one out (the
    built-in extractor reads only that of the schema: editing the rest recompiles nothing)."""
    if schema.classes >= set(CLASSES):
        return version
    return f"{version} classes-{'+'.join(c for c in CLASSES if c in schema.classes)}"


def restrict_classes(found: Any, schema: Schema) -> Any:
    """An `Extraction` without the concepts or entities of a class the schema does not have (anything
    else, a `Skipped`, as it is)."""
    if schema.classes >= {"concept", "entity"} or not hasattr(found, "concepts"):
        return found
    if "concept" not in schema.classes:
        found.concepts = []
    if "entity" not in schema.classes:
        found.entities = []
        found.subject = None
    return found


def schema_warning(schema: Schema) -> str | None:
    """The brief's one line about an unusable schema file."""
    return f"{schema.problem}; the embedded default schema is used" if schema.problem else None
