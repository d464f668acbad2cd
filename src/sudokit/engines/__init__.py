"""The engine contract and the checked call: ``strategy`` (what an engine is and returns), ``registry``
(engines by name, from entry points), ``api`` (the checked call: every answer verified, time limits
kept; ``solve(isolate=True)`` in a killable worker), ``watchdog`` (the watchdog of an in-process
call: SIGALRM, or a thread where there is none), ``verify`` (the checks of an answer) and ``workers``
(the worker processes that isolate engines: forked or spawned).

Engines themselves (``sudokit_strategies`` and third-party plugins) import only the top level
``sudokit``. Above :mod:`sudokit.io` and :mod:`sudokit.model`; below the runtime, the features and
the CLI.
"""
