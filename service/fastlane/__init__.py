"""The fast lane: what the service does beside Litestar's and psycopg's own ways, behind Settings.fast_lane."""
