"""What sudokit does beyond solving: ``crosscheck`` (engines compared), ``bench`` (engines timed),
``logic`` (human-style steps: hints and explanations), ``rating`` (difficulty) and ``generation``
(new puzzles). Every engine call goes through the checked call of :mod:`sudokit.engines.api`, and
the engine is a parameter (``backtrack`` unless told).

Above the runtime, the engines, input and the model; below the CLI.
"""
