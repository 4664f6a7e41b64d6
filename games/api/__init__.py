"""The public JSON API under /api/v1/ (its calls) and its NDJSON streams (docs/api.md)."""
