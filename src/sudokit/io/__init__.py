"""Input and output: reading puzzles from text, files and tables, links (f-puzzles, SudokuPad), the
record types a batch reads and writes, and the output formats.

Modules: ``lzstring`` (the compression links use), ``links``, ``reader`` (puzzle files and arguments),
``tables`` (CSV/TSV/Parquet tables), ``records``, ``output`` (the record formats and writers).
Above :mod:`sudokit.engines` and :mod:`sudokit.model`; below the runtime, the features and the CLI.
"""
