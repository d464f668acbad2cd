"""The distributions here are tested installed, in a venv of their own (tests/test_kit_thirdparty.py).

Their own test files import their engines, which the project's environment does not have: not collected here.
"""

collect_ignore_glob = ["*/test_*.py"]
