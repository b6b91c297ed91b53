"""Whether a commit can complete now: a primary configured to wait for a synchronous standby confirms no commit while
none streams to it. Patroni's strict synchronous mode does exactly this after a failover, while the new leader waits
for a standby, so the service must not say it is ready then (its appends would hang until their bounds)."""

from __future__ import annotations

import psycopg

# One read of settings and of the walsenders this session may see. Without pg_read_all_stats (or superuser) a role
# sees the walsenders' rows but not their sync_state: then only "no standby at all" is known for sure.
_WAITING = """
SELECT current_setting('synchronous_standby_names') <> ''
       AND current_setting('synchronous_commit') NOT IN ('off', 'local')
       AND NOT pg_is_in_recovery(),
       (SELECT count(*) FROM pg_stat_replication),
       (SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')),
       pg_has_role(current_user, 'pg_read_all_stats', 'USAGE')
"""


async def commits_wait(conn: psycopg.AsyncConnection) -> str | None:
    """A sentence when this primary would hold every commit until a synchronous standby connects; else None."""
    row = await (await conn.execute(_WAITING)).fetchone()
    if row is None:
        return None
    configured, streaming, synchronous, sees_states = row
    if not configured:
        return None
    if streaming == 0 or (sees_states and synchronous == 0):
        return (
            "The database confirms no commit until a synchronous standby streams to it (synchronous_standby_names is "
            "set, as after a failover under Patroni's strict synchronous mode), so this server is not ready: appends "
            "would wait until one does."
        )
    return None
