"""The only SQL written out by hand: what the ORM cannot say, with every name from `_meta`.

Two queries: the live-update check's (the most frequent request of all), which reads the game,
the asker's seat, their password hash and their "your turn" count in one round trip; and the
insert-once of a notification (ON CONFLICT DO NOTHING that returns the new row's id, which
`bulk_create(ignore_conflicts=True)` does not). Everything else uses the ORM.
"""

from __future__ import annotations

from django.db import connection

from accounts.models import User
from games.models import Game, Notification, Seat, Status

_GAME, _SEAT, _USER = Game._meta, Seat._meta, User._meta


def _col(meta, name: str) -> str:
    return f'"{meta.get_field(name).column}"'


_G_PK, _S_PK, _U_PK = (f'"{m.pk.column}"' for m in (_GAME, _SEAT, _USER))
_S_GAME, _S_USER, _S_REPLACED = (_col(_SEAT, f) for f in ("game", "user", "replaced_user"))

# A primary-key lookup, and the user's seat among the game's few seats (their own, or the one
# they left to a bot: reading stays allowed); the session user's password hash comes along only
# if the account is active, so that the session can be checked as the rest of the site checks
# it (django.contrib.auth.get_user) without loading the user; and the number of games waiting
# for that user (the nav's badge), by the seat's (user, to_act) index.
_POLL_SQL = f"""
    SELECT g.{_col(_GAME, "version")}, g.{_col(_GAME, "status")}, g.{_col(_GAME, "chat_seq")},
        (g.{_col(_GAME, "public")} OR (g.{_col(_GAME, "join_token")} = %s
            AND (g.{_col(_GAME, "status")} = %s OR g.{_col(_GAME, "watchable_by_link")}))),
        s.{_S_PK} IS NOT NULL,
        u.{_col(_USER, "password")}, CASE WHEN s.{_S_USER} = %s THEN s.{_S_PK} END,
        s.{_col(_SEAT, "watched")},
        (SELECT count(*) FROM {_SEAT.db_table} t
            JOIN {_GAME.db_table} tg ON tg.{_G_PK} = t.{_S_GAME}
            WHERE t.{_S_USER} = u.{_U_PK} AND t.{_col(_SEAT, "to_act")}
                AND tg.{_col(_GAME, "status")} = %s)
    FROM {_GAME.db_table} g
    LEFT JOIN {_SEAT.db_table} s
        ON s.{_S_GAME} = g.{_G_PK} AND (s.{_S_USER} = %s OR s.{_S_REPLACED} = %s)
    LEFT JOIN {_USER.db_table} u ON u.{_U_PK} = %s AND u.{_col(_USER, "is_active")}
    WHERE g.{_G_PK} = %s
    LIMIT 1
"""  # noqa: S608 - names from the models' _meta; every value is a parameter


def poll_row(game_id: int, user_id: int, token: str) -> tuple | None:
    """The live check's row: (version, status, chat sequence, open to this visitor, seated or
    formerly seated, the active user's password hash, their own seat's id, its watched mark,
    their "your turn" count); None if there is no such game."""
    open_, active = Status.OPEN.value, Status.ACTIVE.value
    params = [token, open_, user_id, active, user_id, user_id, user_id, game_id]
    with connection.cursor() as cursor:
        cursor.execute(_POLL_SQL, params)
        return cursor.fetchone()


class _InsertOnce:
    """One model's INSERT that writes nothing if a unique constraint already holds the row
    (ON CONFLICT DO NOTHING, PostgreSQL and SQLite alike): the values prepared by the fields as
    save() prepares them, the new primary key returned, or None when nothing was written."""

    def __init__(self, model):
        meta = model._meta
        self.fields = [f for f in meta.concrete_fields if f is not meta.pk]
        columns = ", ".join(f'"{f.column}"' for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        self.sql = (
            f"INSERT INTO {meta.db_table} ({columns}) VALUES ({marks}) "  # noqa: S608 - _meta
            f'ON CONFLICT DO NOTHING RETURNING "{meta.pk.column}"'
        )

    def __call__(self, obj) -> int | None:
        values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, values)
            row = cursor.fetchone()
        if row is None:
            return None
        # The row as saved: what save() leaves on an instance it inserted.
        obj.pk = row[0]
        obj._state.adding = False
        obj._state.db = connection.alias
        return obj.pk


insert_notification_once = _InsertOnce(Notification)
