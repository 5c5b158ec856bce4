"""The trust step inside a pass: page changes classified, disputes, kept values, page-edit checks, change sets.
It may import the seam modules and readers, never steps, previous, builtin or llm.
"""
