"""The pass and its steps: gather → extract → match → update → flag → brief (pipeline.py runs them).
It may import every other room of the compiler; nothing in the compiler imports it but the seam's runner.
"""
