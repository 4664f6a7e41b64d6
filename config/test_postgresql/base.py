"""Django's PostgreSQL backend, for the tests only (config/test_settings.py), with one change:
the flush that ends every transactional test empties the tables with DELETE instead of
TRUNCATE.

On a database of a few rows per table, PostgreSQL's TRUNCATE of the site's ~30 tables costs
0.3 to 2 s (a new file for each table and its indexes, and the old ones' unlinking at commit),
DELETE a few milliseconds: the suite's transactional tests spent about 170 s of its 900 s in that
flush (docs/benchmarks.md, "The test suite's wall time"). The result is the same: every table
empty, the sequences left as TRUNCATE without RESTART IDENTITY leaves them. Django runs the
flush in one transaction, and its foreign keys are DEFERRABLE INITIALLY DEFERRED, so the order of
the DELETEs does not matter. A flush asked to reset sequences or to cascade (neither is used
here) keeps Django's TRUNCATE."""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
