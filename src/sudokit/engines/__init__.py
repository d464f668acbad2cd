"""The engine contract and the checked call: ``strategy`` (what an engine is and returns), ``registry``
(engines by name, from entry points), ``api`` (the checked call: every answer verified, time limits
kept), ``watchdog`` (the SIGALRM watchdog of an in-process call), ``verify`` (the checks of an answer)
and ``workers`` (the worker processes that isolate engines).

Above :mod:`sudokit.model`; below input/output, the runtime, the features and the CLI.
"""
