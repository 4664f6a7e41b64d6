"""The tests' database backend: Django's PostgreSQL backend with a cheaper flush (see base.py)."""
