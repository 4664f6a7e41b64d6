"""Everything that only reads: who may read a game, players, ratings, replays, invitations."""
