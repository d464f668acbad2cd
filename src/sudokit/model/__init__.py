"""The board model and its rules: box shapes, the immutable :class:`~sudokit.model.grid.Grid`, its text
forms and the variant rules (killer cages, thermometers, ...). Imports nothing else of sudokit but
:mod:`sudokit.errors`.

Modules: ``shape`` (box shapes), ``formats`` (the text forms: symbols, line, grid, pretty), ``grid``
(the board), ``variants`` (the variant rules and their JSON form).
"""
