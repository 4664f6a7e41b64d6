"""Live updates: the cache the live check reads, the events a commit sends, the stream process."""
