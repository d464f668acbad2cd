"""A third-party engine whose import fails, as when its own dependency is missing."""

raise ImportError("this plugin needs the library 'unobtainium', which is not installed")
