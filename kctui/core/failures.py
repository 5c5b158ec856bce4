"""Which failure an operating-system error is: a write refused for lack of space (`disk_full`) or by a
read-only filesystem (`read_only`) is told apart from any other I/O failure, wherever in an exception's
chain (`raise … from …`, or an exception raised while handling another) it sits. Pure: no I/O."""

from __future__ import annotations

import errno

from kctui.core.models import FailureCode

STORAGE_ERRNOS: dict[int, FailureCode] = {
    errno.ENOSPC: FailureCode.DISK_FULL,
    errno.EDQUOT: FailureCode.DISK_FULL,
    errno.EROFS: FailureCode.READ_ONLY,
}


def storage_failure(errno_value: int | None) -> FailureCode | None:
    """`disk_full` for no space (or quota), `read_only` for a read-only filesystem, else None."""
    return STORAGE_ERRNOS.get(errno_value) if errno_value is not None else None


def storage_error_of(exc: BaseException | None) -> tuple[FailureCode, OSError] | None:
    """The first OSError of `exc`'s chain whose errno is a storage failure, with its code; else None."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError):
            code = storage_failure(exc.errno)
            if code is not None:
                return code, exc
        exc = exc.__cause__ or exc.__context__
    return None


def storage_message(code: FailureCode, error: OSError, doing: str) -> str:
    """One line: what could not be done, and why (the path where the OS named one)."""
    why = error.strerror or ("no space left on device" if code == FailureCode.DISK_FULL else "read-only file system")
    where = f": {error.filename}" if error.filename else ""
    return f"{doing} failed: {why.lower()}{where}"


__all__ = ["STORAGE_ERRNOS", "storage_error_of", "storage_failure", "storage_message"]
