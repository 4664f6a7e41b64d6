"""A game with its seats and their players, read by SQL written out once.

Every game page, fragment and move reads the same rows: the game, its seats in order, each
seat's player and the player a bot replaced. The ORM compiled those queries anew on every
request (`Prefetch` + `select_related`: more than a millisecond of Python, the database's
answer a tenth of that). Here they are written out once, from the models' own fields, and the
rows become the very instances the ORM builds: the fields' converters applied, `Model.from_db`,
the related objects cached (`seat.game`, `seat.user`, `seat.replaced_user`) and the seats set
as the game's prefetched `seats`, so `game.seats.all()` reads them without a query and any other
`game.seats` query (a filter, a count) is the ORM's as before.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Prefetch

from accounts.models import User
from games.models import ChatMessage, Game, Move, Notification, Seat

# The order of a game's seats wherever they are shown.
SEAT_ORDER = ("position", "pk")

# A game's seats as its pages show them, for the ORM: in order, with their players (what the
# queries below read, and what a list of games prefetches).
SEATS = Prefetch(
    "seats", queryset=Seat.objects.select_related("user", "replaced_user").order_by(*SEAT_ORDER)
)


class _Columns:
    """One model's columns in a SELECT under a table alias, and its instances from them."""

    def __init__(self, model, alias: str):
        self.model = model
        self.fields = model._meta.concrete_fields
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f'{alias}."{f.column}"' for f in self.fields)
        self.width = len(self.fields)
        self.pk_at = self.fields.index(model._meta.pk)
        self._cols = [f.get_col(alias) for f in self.fields]
        self._converters: dict[str, list] = {}

    def _converters_for(self, conn) -> list:
        """The converters the ORM's compiler would apply to each column (JSON decoding on every
        database; dates, booleans and decimals on SQLite), found once per database."""
        found = self._converters.get(conn.alias)
        if found is None:
            found = []
            for i, col in enumerate(self._cols):
                convs = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
                if convs:
                    found.append((i, convs, col))
            self._converters[conn.alias] = found
        return found

    def build(self, row, start: int, conn):
        """The instance whose columns start at `start` in `row`, or None (an outer join's
        empty side: no primary key)."""
        values = list(row[start : start + self.width])
        if values[self.pk_at] is None:
            return None
        for i, convs, col in self._converters_for(conn):
            value = values[i]
            for convert in convs:
                value = convert(value, col, conn)
            values[i] = value
        return self.model.from_db(conn.alias, self.names, values)


_GAME = _Columns(Game, "g")
_CHAT = _Columns(ChatMessage, "m")
_AUTHOR = _Columns(User, "u")
_SEAT = _Columns(Seat, "s")
_USER = _Columns(User, "u")
_REPLACED = _Columns(User, "r")

_SEAT_GAME = Seat._meta.get_field("game")
_SEAT_USER = Seat._meta.get_field("user")
_SEAT_REPLACED = Seat._meta.get_field("replaced_user")
_SEATS_CACHE = _SEAT_GAME.remote_field.cache_name  # game.seats' prefetch name: "seats"
assert SEAT_ORDER == ("position", "pk") and Seat._meta.pk.column == "id"  # noqa: S101 - _ORDER
assert Game._meta.pk.column == User._meta.pk.column == "id"  # noqa: S101 - the joins

_GAMES, _SEATS, _USERS = Game._meta.db_table, Seat._meta.db_table, User._meta.db_table
_FROM_SEATS = f"""
    {_SEATS} s
    LEFT JOIN {_USERS} u ON u."id" = s."{_SEAT_USER.column}"
    LEFT JOIN {_USERS} r ON r."id" = s."{_SEAT_REPLACED.column}"
"""
_ORDER = 's."position", s."id"'  # SEAT_ORDER

# The game and its seats in one query: one row per seat (one with empty seat columns for a
# game without seats); the game's columns repeat on each row and are read from the first.
_GAME_WITH_SEATS_SQL = f"""
    SELECT {_GAME.sql}, {_SEAT.sql}, {_USER.sql}, {_REPLACED.sql}
    FROM {_GAMES} g LEFT JOIN ({_FROM_SEATS}) ON s."{_SEAT_GAME.column}" = g."id"
    WHERE g."id" = %s
    ORDER BY {_ORDER}
"""  # noqa: S608 - names from the models; the one value is a parameter

_GAME_SQL = f'SELECT {_GAME.sql} FROM {_GAMES} g WHERE g."id" = %s'  # noqa: S608 - as above

_SEATS_SQL = f"""
    SELECT {_SEAT.sql}, {_USER.sql}, {_REPLACED.sql}
    FROM {_FROM_SEATS}
    WHERE s."{_SEAT_GAME.column}" = %s
    ORDER BY {_ORDER}
"""  # noqa: S608 - names from the models; the one value is a parameter


_CHAT_AUTHOR = ChatMessage._meta.get_field("author")
_CHAT_GAME = ChatMessage._meta.get_field("game")
_CHAT_SQL = f"""
    SELECT {_CHAT.sql}, {_AUTHOR.sql}
    FROM {ChatMessage._meta.db_table} m
    JOIN {_USERS} u ON u."id" = m."{_CHAT_AUTHOR.column}"
    WHERE m."{_CHAT_GAME.column}" = %s
    ORDER BY m."id" DESC
    LIMIT %s
"""  # noqa: S608 - names from the models; the values are parameters


def _seat(game: Game, row, start: int, conn) -> Seat | None:
    seat = _SEAT.build(row, start, conn)
    if seat is None:
        return None
    start += _SEAT.width
    _SEAT_GAME.set_cached_value(seat, game)
    _SEAT_USER.set_cached_value(seat, _USER.build(row, start, conn))
    _SEAT_REPLACED.set_cached_value(seat, _REPLACED.build(row, start + _USER.width, conn))
    return seat


def _set_seats(game: Game, seats: list[Seat]) -> None:
    """`game.seats.all()` is now these seats, as after prefetch_related(SEATS): the cached
    queryset is the one the prefetch would have left (this game's, ordered, with the players),
    so what is built on it (a filter, a count) queries what it queried."""
    queryset = game.seats._apply_rel_filters(SEATS.queryset._chain())
    queryset._result_cache = seats
    queryset._prefetch_done = True
    if not hasattr(game, "_prefetched_objects_cache"):
        game._prefetched_objects_cache = {}
    game._prefetched_objects_cache[_SEATS_CACHE] = queryset


def game_with_seats(game_id: int) -> Game | None:
    """The game with its seats and their players (one query), or None if there is none."""
    with connection.cursor() as cursor:
        cursor.execute(_GAME_WITH_SEATS_SQL, [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    game = _GAME.build(rows[0], 0, connection)
    seats = [_seat(game, row, _GAME.width, connection) for row in rows]
    _set_seats(game, [s for s in seats if s is not None])
    return game


def locked_game(game_id: int, *, with_seats: bool = False) -> Game | None:
    """The game row locked until the transaction ends (inside transaction.atomic()), or None.
    With its seats: read after the lock is held (a second query), so that they are the ones
    the transaction that held the lock before left, never older."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(_GAME_SQL + lock, [game_id])
        row = cursor.fetchone()
        if row is None:
            return None
        game = _GAME.build(row, 0, connection)
        if with_seats:
            cursor.execute(_SEATS_SQL, [game_id])
            _set_seats(game, [_seat(game, r, 0, connection) for r in cursor.fetchall()])
    return game


def latest_chat(game_id: int, count: int) -> list[ChatMessage]:
    """The game's last `count` chat messages, oldest first, each with its author."""
    with connection.cursor() as cursor:
        cursor.execute(_CHAT_SQL, [game_id, count])
        found = cursor.fetchall()
    messages = []
    for row in reversed(found):
        message = _CHAT.build(row, 0, connection)
        _CHAT_AUTHOR.set_cached_value(message, _AUTHOR.build(row, _CHAT.width, connection))
        messages.append(message)
    return messages


# --- the writes of a move ------------------------------------------------------------------------


class _Insert:
    """One model's INSERT, written out once: the values prepared by the fields as the ORM's
    save() prepares them (defaults set by the model, auto_now_add, JSON), the new primary key
    returned. `ignore_conflicts`: a row that a unique constraint already holds is not written
    (ON CONFLICT DO NOTHING, PostgreSQL and SQLite alike) and the call returns None."""

    def __init__(self, model, *, ignore_conflicts: bool = False):
        meta = model._meta
        self.fields = [f for f in meta.concrete_fields if f is not meta.pk]
        columns = ", ".join(f'"{f.column}"' for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        conflict = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
        self.sql = (
            f"INSERT INTO {meta.db_table} ({columns}) VALUES ({marks}){conflict} "  # noqa: S608
            f'RETURNING "{meta.pk.column}"'
        )

    def __call__(self, obj) -> int | None:
        values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, values)
            row = cursor.fetchone()
        if row is None:
            return None
        obj.pk = row[0]
        obj._state.adding = False
        obj._state.db = connection.alias
        return obj.pk


insert_move = _Insert(Move)
insert_notification_once = _Insert(Notification, ignore_conflicts=True)

_SEAT_TABLE, _SEAT_TO_ACT = Seat._meta.db_table, Seat._meta.get_field("to_act").column


def set_to_act(game_id: int, positions: list[int]) -> None:
    """Seat.to_act true for the seats at `positions` of the game, false for the others: one
    UPDATE that writes only the rows that change (each a write of the (user, to_act) index)."""
    marks = ", ".join(["%s"] * len(positions))
    now = f'COALESCE("position" IN ({marks}), FALSE)' if positions else "FALSE"
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE {_SEAT_TABLE} SET "{_SEAT_TO_ACT}" = {now} '  # noqa: S608 - values as parameters
            f'WHERE "{_SEAT_GAME.column}" = %s AND "{_SEAT_TO_ACT}" <> {now}',
            [*positions, game_id, *positions],
        )


_SEEN_SQL = f'UPDATE {_SEAT_TABLE} SET "seen_version" = %s, "seen_mark" = %s WHERE "id" = %s'  # noqa: S608


def set_seen(seat_id: int, version: int, mark: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_SEEN_SQL, [version, mark, seat_id])
