"""A write's statements, named: what the statement-count tests of a move, a program and a
resolution assert (issue 36.1), and the settings under which they count them."""

from __future__ import annotations

# The start of each statement a write may make, and its name in the tests' lists.
STATEMENTS = (
    ('SELECT "games_seat"', "lock"),  # the game locked, read with its seats and players
    ('INSERT INTO "games_move"', "move"),
    ('UPDATE "games_game"', "game"),
    ('UPDATE "games_seat"', "seats"),  # to_act, the mover's seen mark: one UPDATE
    ("INSERT INTO games_notification", "outbox"),  # every row of the change in one INSERT
    ("SELECT pg_notify", "notify"),  # the game's and the turns' events in one statement
    ('SELECT 1 AS "a" FROM "games_ratingchange"', "rated already?"),  # at the end of a game
    ('SELECT "games_rating"', "rating locked"),  # each player's
    ('UPDATE "games_rating"', "rating"),
    ('INSERT INTO "games_ratingchange"', "rating changes"),  # all of them in one INSERT
    ('SELECT "accounts_user"', "user"),  # the session's user
    ('SELECT "games_game"."version"', "committed version"),  # the view's: was the step taken?
)


def named(sql: str) -> str:
    return next((name for start, name in STATEMENTS if sql.lstrip().startswith(start)), sql)


def split_statements(queries) -> tuple[list[str], list[str]]:
    """A request's statements outside the write's transaction, and those inside it (between
    the savepoint that stands for it inside the test's transaction and its release), named."""
    sql = [q["sql"] for q in queries.captured_queries]
    begin = next(i for i, q in enumerate(sql) if q.startswith("SAVEPOINT"))
    end = sql.index(f"RELEASE {sql[begin]}")
    inside = [named(q) for q in sql[begin + 1 : end]]
    outside = [named(q) for q in sql[:begin] + sql[end + 1 :]]
    return outside, inside


def as_in_production(settings) -> None:
    """The open pages' streams on (so each change NOTIFYs: counted), and a shared cache for the
    live checks and the nav's count (CACHE_URL)."""
    settings.GEARTABLE_STREAM_URL = "/"
    settings.GEARTABLE_LIVE_CACHE = True
