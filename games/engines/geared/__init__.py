"""The rules engine of Geared: engine.py is its door (docs/engine-geared.md)."""
