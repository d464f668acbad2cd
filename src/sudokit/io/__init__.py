"""Input: every text form of a puzzle and where puzzles come from.

Modules: ``puzzles`` (:func:`~sudokit.io.puzzles.parse_puzzle`: any text form, links included),
``links`` (f-puzzles and SudokuPad links) and ``lzstring`` (the compression they use), ``records``
(the :class:`~sudokit.io.records.Record` a source yields, and the bounded reading of lines),
``reader`` (puzzle files, standard input and arguments) and ``tables`` (CSV and Parquet tables, and
the Parquet writer of csv records).

Above :mod:`sudokit.model`; below the engines (the checked call reads links), the runtime, the
features and the CLI.
"""
