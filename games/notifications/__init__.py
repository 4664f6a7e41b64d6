"""E-mails and pushes to players, by job: what is owed to whom, e-mail, push, digest, unsubscribe,
the outbox."""
