"""The rules engine of Out of Gears: engine.py is its door (docs/engine-outofgears.md)."""
