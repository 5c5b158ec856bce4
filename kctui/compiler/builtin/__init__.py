"""The offline extractor and its rules: names, facts, prose, sentences and document shapes, read from
the text of one source at a time. It may import the seam modules and readers, never steps, previous or trust.
"""
