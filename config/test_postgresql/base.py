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
here) keeps Django's TRUNCATE.

And one more: the test database is dropped WITH (FORCE) at the end. A session of the run's own
process still connected to it then (a thread's connection not yet collected) made Django's plain
DROP fail ("being accessed by other users"), and the database stayed on the server; such a
session is named in a warning, so that it can still be found."""

import warnings

from django.db.backends.postgresql import base, creation, operations


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


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name, verbosity):
        self.connection.close_pool()  # as Django's own does first
        with self._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT application_name, state, left(query, 200) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [test_database_name],
            )
            for name, state, query in cursor.fetchall():
                warnings.warn(
                    f"A session still connected to {test_database_name} at its drop "
                    f"(application {name!r}, {state}, last query {query!r})",
                    RuntimeWarning,
                    stacklevel=1,
                )
            name = self.connection.ops.quote_name(test_database_name)
            cursor.execute(f"DROP DATABASE {name} WITH (FORCE)")


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    creation_class = DatabaseCreation
