"""A third-party engine whose import ends the process (a C library that calls exit())."""

import os

os._exit(7)


class Engine:
    name = "exits-on-import"
    description = "never imported"
