"""Values as the compiler compares them. The module lives in the pure core (`kctui.core.values`), since
a claim's identity depends on it; it is re-exported here for the compiler's modules."""

from __future__ import annotations

from kctui.core.values import (  # noqa: F401 - re-exported
    ISO_DATE,
    NUMBER,
    UNITS,
    VERSION,
    attribute_key,
    cited_lines_contain,
    fact_tokens,
    normalise_value,
    plain_cited_text,
    scope_key,
    split_unit,
    strip_inline,
)

__all__ = ["ISO_DATE", "NUMBER", "UNITS", "VERSION", "attribute_key", "cited_lines_contain", "fact_tokens",
           "normalise_value", "plain_cited_text", "scope_key", "split_unit", "strip_inline"]
