-- A write sent again with the same Idempotency-Key (undo, redo, a roll, a new member) answers what was recorded the
-- first time instead of doing it twice. The key, with a digest of the request it came with, is kept on the first
-- event of the batch it recorded: in the log itself, so it holds across restarts and on every server.
ALTER TABLE events ADD COLUMN idempotency_key text, ADD COLUMN request_digest text;
CREATE UNIQUE INDEX events_by_idempotency_key ON events (campaign_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
