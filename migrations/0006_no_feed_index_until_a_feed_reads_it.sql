-- The index for a feed across campaigns, (tx_id, global_position), had no reader: no query of the service reads
-- events in that order. Every insert paid for it all the same: about 100 µs of a one-event append's 800 µs and 11%
-- of a 1,000-event batch, measured on PostgreSQL 15 against the same database without it. The columns stay, so a
-- feed can be built when one is wanted: it then creates the index again, without blocking appends, with
--   CREATE INDEX CONCURRENTLY events_feed ON events (tx_id, global_position);
DROP INDEX events_feed;
