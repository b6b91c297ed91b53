"""The audit: readers of the log that answer what happened in a scenario or chapter, what changed between two
positions, a recap to share, and a fork of the log at a position. They read the log a chunk at a time; only the
fork writes, and it writes a new campaign.
"""
