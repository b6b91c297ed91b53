"""Everything with I/O: the HTTP app, the event store, catalogue loading, the CLI, embedded PostgreSQL."""
