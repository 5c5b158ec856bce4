"""What the last pass knew: the previous generation read back, its memos, resident copies and prelink.
It may import the seam modules, readers and trust (a page's freshness clock), never steps, builtin or llm.
"""
