"""The games' management commands, one module each."""
