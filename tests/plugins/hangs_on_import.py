"""A third-party engine whose import never ends (it waits for a server that is not there)."""

import time

time.sleep(3600)


class Engine:
    name = "hangs-on-import"
    description = "never imported"
