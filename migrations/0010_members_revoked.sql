-- A member the owner revoked: the row stays (the log still names them as an actor), their token hash is emptied so no
-- token matches it again, and this says when. Every server process hears of the change at once (NOTIFY qm_members,
-- service/store/members.py), so none keeps accepting the revoked token from its cache.
ALTER TABLE members ADD COLUMN revoked_at timestamptz;
