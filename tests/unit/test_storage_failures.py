"""Which failure an OS error is (kctui.core.failures): a full disk, a read-only disk, or neither."""

from __future__ import annotations

import errno

import pytest

from kctui.core.failures import storage_error_of, storage_failure, storage_message


@pytest.mark.parametrize("value, code", [(errno.ENOSPC, "disk_full"), (errno.EDQUOT, "disk_full"),
                                         (errno.EROFS, "read_only"), (errno.EACCES, None), (errno.EIO, None),
                                         (None, None)])
def test_errno_to_code(value, code):
    assert storage_failure(value) == code


def _chained(inner: BaseException, *, implicit: bool) -> BaseException:
    try:
        try:
            raise inner
        except OSError as exc:
            if implicit:
                raise RuntimeError("while handling")  # noqa: B904 - the implicit chain is the point
            raise RuntimeError("wrapped") from exc
    except RuntimeError as outer:
        return outer


@pytest.mark.parametrize("implicit", [False, True])
def test_found_anywhere_in_the_chain(implicit):
    inner = OSError(errno.ENOSPC, "No space left on device", "/x/y.md")
    code, error = storage_error_of(_chained(inner, implicit=implicit))
    assert code == "disk_full" and error is inner


def test_other_errors_are_not_storage_failures():
    assert storage_error_of(OSError(errno.EACCES, "Permission denied")) is None
    assert storage_error_of(ValueError("x")) is None
    assert storage_error_of(None) is None


@pytest.mark.parametrize("error, text", [
    (OSError(errno.ENOSPC, "No space left on device", "/k/wiki"), "publishing failed: no space left on device: /k/wiki"),
    (OSError(errno.EROFS, "Read-only file system"), "publishing failed: read-only file system"),
])
def test_message_is_one_line(error, text):
    code = storage_failure(error.errno)
    assert storage_message(code, error, "publishing") == text
