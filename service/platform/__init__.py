"""The ground floor: settings, logs, metrics, tokens, the embedded PostgreSQL, the migrations runner, and the
connections that LISTEN. It imports nothing of the service above it."""
