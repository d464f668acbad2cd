"""The batch runtime: ``session`` (the one runner every batch command shares), ``batch`` (the solve
job), ``fastpath`` (the batch path of plain-data answers), ``executors`` (local and Dask pools) and
``progress`` (the progress line).

Above :mod:`sudokit.io`, :mod:`sudokit.engines` and :mod:`sudokit.model`; below the features and the CLI.
"""
