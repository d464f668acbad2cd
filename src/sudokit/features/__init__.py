"""What sudokit does beyond solving: ``crosscheck`` (engines compared), ``bench`` (engines timed),
``logic`` (human-style steps: hints and explanations), ``rating`` (difficulty) and ``generation``
(new puzzles). Each calls engines through the checked call of :mod:`sudokit.engines.api`.

Above the runtime, input/output, the engines and the model; below the CLI.
"""
