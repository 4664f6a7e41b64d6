"""The only SQL written out by hand in the site: what the ORM cannot say.

Three kinds, every table and column name from the models' `_meta` (the models are handed in by
the modules above the models' layer, or looked up by name once the apps are loaded, so that
this module imports none of them and sits at the bottom of the map, docs/code-map.md):

- `PollQuery`: the live-update check's one round trip (the most frequent request of all):
  the game, what ties the asker to it, their password hash and their "your turn" count.
- `InsertOnce`: a row's INSERT that writes nothing if a unique constraint already holds it
  (ON CONFLICT DO NOTHING that returns the new id, which `bulk_create(ignore_conflicts=True)`
  does not).
- `notify` and `notify_row`: PostgreSQL's `pg_notify` (several in one statement), sent inside
  the transaction that made the change (games/live/events.py).
"""

from __future__ import annotations

from functools import cache

from django.db import connection


def _col(meta, name: str) -> str:
    return f'"{meta.get_field(name).column}"'


def _pk(meta) -> str:
    return f'"{meta.pk.column}"'


# --- the live check's query -------------------------------------------------------------------


class PollQuery:
    """The live check's row for (game, user, link token): the game's (version, status, chat
    sequence), the facts `access.may_read` weighs (public, watchable by its link, the token is
    its link's, the user is seated or was, is invited, imported it), the active user's password
    hash, their own seat's id and its watched mark, and their "your turn" count; None if there
    is no such game. It decides nothing: access.game_reader asks `may_read` (issue 34.8).

    A primary-key lookup, and the user's seat among the game's few seats (their own, or the one
    they left to a bot); their invitation to it (the invitations of one game, by its index);
    the session user's password hash comes along only if the account is active, so that the
    session can be checked as the rest of the site checks it (django.contrib.auth.get_user)
    without loading the user; and the number of games waiting for that user (the nav's
    badge), by the seat's (user, to_act) index."""

    def __init__(self, game, seat, user, invitation, *, active_status: str) -> None:
        g, s, u, i = game._meta, seat._meta, user._meta, invitation._meta
        s_game, s_user, s_replaced = (_col(s, f) for f in ("game", "user", "replaced_user"))
        self.active = str(active_status)
        self.sql = f"""
            SELECT g.{_col(g, "version")}, g.{_col(g, "status")}, g.{_col(g, "chat_seq")},
                g.{_col(g, "public")}, g.{_col(g, "watchable_by_link")},
                g.{_col(g, "join_token")} = %s,
                s.{_pk(s)} IS NOT NULL,
                EXISTS (SELECT 1 FROM {i.db_table} inv
                    WHERE inv.{_col(i, "game")} = g.{_pk(g)} AND inv.{_col(i, "user")} = %s),
                g.{_col(g, "imported")} AND g.{_col(g, "creator")} = %s,
                u.{_col(u, "password")}, CASE WHEN s.{s_user} = %s THEN s.{_pk(s)} END,
                s.{_col(s, "watched")},
                (SELECT count(*) FROM {s.db_table} t
                    JOIN {g.db_table} tg ON tg.{_pk(g)} = t.{s_game}
                    WHERE t.{s_user} = u.{_pk(u)} AND t.{_col(s, "to_act")}
                        AND tg.{_col(g, "status")} = %s)
            FROM {g.db_table} g
            LEFT JOIN {s.db_table} s
                ON s.{s_game} = g.{_pk(g)} AND (s.{s_user} = %s OR s.{s_replaced} = %s)
            LEFT JOIN {u.db_table} u ON u.{_pk(u)} = %s AND u.{_col(u, "is_active")}
            WHERE g.{_pk(g)} = %s
            LIMIT 1
        """  # noqa: S608 - names from the models' _meta; every value is a parameter

    def __call__(self, game_id: int, user_id: int, token: str) -> tuple | None:
        uid = user_id
        params = [token, uid, uid, uid, self.active, uid, uid, uid, game_id]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.fetchone()


# --- insert once --------------------------------------------------------------------------


class InsertOnce:
    """One model's INSERT that writes nothing if a unique constraint already holds the row
    (ON CONFLICT DO NOTHING, PostgreSQL and SQLite alike): the values prepared by the fields as
    save() prepares them, the new primary key returned, or None when nothing was written.
    `many`: several rows in one statement; `key`, the fields of the unique constraint, tells
    which of them were written (the rows returned are matched to the objects by it)."""

    def __init__(self, model, key: tuple[str, ...] = ()) -> None:
        meta = model._meta
        self.fields = [f for f in meta.concrete_fields if f is not meta.pk]
        self.key = [meta.get_field(name) for name in key]
        self.table = meta.db_table
        self.columns = ", ".join(f'"{f.column}"' for f in self.fields)
        self.row = "(" + ", ".join(["%s"] * len(self.fields)) + ")"
        self.returning = ", ".join([_pk(meta), *(f'"{f.column}"' for f in self.key)])
        self.sql = self._sql(1)

    def _sql(self, rows: int) -> str:
        return (
            f"INSERT INTO {self.table} ({self.columns}) "  # noqa: S608 - names from _meta
            f"VALUES {', '.join([self.row] * rows)} "
            f"ON CONFLICT DO NOTHING RETURNING {self.returning}"
        )

    def _values(self, obj) -> list:
        return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in self.fields]

    def __call__(self, obj) -> int | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, self._values(obj))
            row = cursor.fetchone()
        if row is None:
            return None
        return _saved(obj, row[0])

    def many(self, objs: list) -> list:
        """Insert these rows at once (none of them sharing the constraint's key); the objects
        written, in their order (those the constraint already held are left out)."""
        if not objs:
            return []
        values = [self._values(obj) for obj in objs]
        with connection.cursor() as cursor:
            cursor.execute(self._sql(len(objs)), [v for row in values for v in row])
            written = {tuple(row[1:]): row[0] for row in cursor.fetchall()}
        at = [self.fields.index(f) for f in self.key]
        saved = []
        for obj, row in zip(objs, values, strict=True):
            pk = written.get(tuple(row[i] for i in at))
            if pk is not None:
                _saved(obj, pk)
                saved.append(obj)
        return saved


def _saved(obj, pk: int) -> int:
    # The row as saved: what save() leaves on an instance it inserted (Model._state is
    # documented: docs/ref/models/instances, "Model._state").
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
    return pk


# --- NOTIFY -------------------------------------------------------------------------------


def notify(channel: str, *payloads: str) -> None:
    """PostgreSQL's NOTIFY of each payload on `channel`, in one statement, delivered at this
    transaction's commit in this order."""
    calls = ", ".join(["pg_notify(%s, %s)"] * len(payloads))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {calls}", [v for p in payloads for v in (channel, p)])


@cache
def _notify_row_sql(model, fields: tuple[tuple[str, str], ...]) -> str:
    meta = model._meta
    pairs = ", ".join(f"'{key}', {_col(meta, name)}" for key, name in fields)
    return (
        f"SELECT pg_notify(%s, json_build_object({pairs}, 'kind', %s)::text) "  # noqa: S608
        f"FROM {meta.db_table} WHERE {_pk(meta)} = %s"
    )


def notify_row(channel: str, model, pk: int, kind: str, **fields: str) -> None:
    """NOTIFY a JSON object of one row's fields (`key="field name"`) as this transaction sees
    them, and `kind`: read and sent in one statement, inside the transaction that wrote them.
    Nothing is sent if there is no such row."""
    sql = _notify_row_sql(model, tuple(fields.items()))
    with connection.cursor() as cursor:
        cursor.execute(sql, [channel, kind, pk])
