"""The batch runtime: ``session`` (the one runner every batch command shares), ``batch`` (the solve
jobs), ``fastpath`` (the batch path of plain-data answers), ``executors`` (local and Dask pools),
``records`` (:class:`~sudokit.runtime.records.Outcome`: what became of one input record), ``output``
(the record formats and writers, resume) and ``progress`` (the progress line).

Above :mod:`sudokit.engines`, :mod:`sudokit.io` and :mod:`sudokit.model`; below the features and the CLI.
"""
