"""Model replies on disk, keyed by (model, prompt version, chunk digest) under the base's
`.a3s/cache/llm/`: an unchanged chunk costs no request and no token on the next pass. Only replies
that parsed are stored; an unreadable entry is a miss. Writes are atomic (temp file + rename). The
entries hold the reply text and its token counts, never a request, a header or the key."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from kctui.atomic_write import write_atomically
from kctui.compiler.llm.client import Reply

ENTRY_VERSION = 1


def llm_cache_dir(source_path: Path) -> Path:
    return Path(source_path).parent / ".a3s" / "cache" / "llm"


class ReplyCache:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self._lock = threading.Lock()

    def _file(self, key: str) -> Path | None:
        if self.folder is None or len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
            return None
        return self.folder / key[:2] / f"{key}.json"

    def contains(self, key: str) -> bool:
        target = self._file(key)
        return target is not None and target.is_file()

    def get(self, key: str) -> Reply | None:
        target = self._file(key)
        if target is None:
            return None
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
            if data.get("v") != ENTRY_VERSION or data.get("key") != key:
                return None
            reply = Reply(str(data["content"]), str(data.get("finish_reason", "")),
                          _opt_int(data.get("prompt_tokens")), _opt_int(data.get("completion_tokens")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        with self._lock:
            self.hits += 1
        return reply

    def put(self, key: str, reply: Reply) -> None:
        target = self._file(key)
        if target is None:
            return
        entry = {"v": ENTRY_VERSION, "key": key, "content": reply.content, "finish_reason": reply.finish_reason,
                 "prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens}
        try:
            write_atomically(target, json.dumps(entry, sort_keys=True, ensure_ascii=False))
        except (OSError, ValueError):
            pass  # a cache that cannot be written is only slower


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
