"""Small third-party plugins for the registry tests, named by ``EntryPoint`` objects, never installed."""
