"""What is stored, by subject: games with their seats and moves, the outbox's rows, the table's
chat, notes and moderation, the ratings. Every model is re-exported here: Django, the migrations
and the code name them `games.models.X`."""

from games.models.game import (
    SEAT_ORDER,
    TURN_TIMES,
    BotKind,
    Game,
    GameQuerySet,
    Kind,
    Move,
    Seat,
    Status,
    in_seat_order,
    new_token,
    seat_names,
    seats_of,
    shown,
    table_prefetch,
    table_seats,
)
from games.models.outbox import (
    AccountMail,
    Digest,
    Invitation,
    Notification,
    Outgoing,
    Push,
)
from games.models.ratings import (
    Rating,
    RatingChange,
    display_rating,
)
from games.models.table import (
    CHAT_SHOWN,
    ChatMessage,
    GameNote,
    ModerationAction,
    Report,
    chat_messages,
)

__all__ = [
    "SEAT_ORDER",
    "TURN_TIMES",
    "AccountMail",
    "BotKind",
    "ChatMessage",
    "Digest",
    "Game",
    "GameNote",
    "GameQuerySet",
    "Invitation",
    "Kind",
    "ModerationAction",
    "Move",
    "Notification",
    "Outgoing",
    "Push",
    "Rating",
    "RatingChange",
    "Report",
    "Seat",
    "Status",
    "CHAT_SHOWN",
    "chat_messages",
    "display_rating",
    "in_seat_order",
    "new_token",
    "seat_names",
    "seats_of",
    "shown",
    "table_prefetch",
    "table_seats",
]
