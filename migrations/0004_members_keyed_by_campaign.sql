-- Ready for Citus (distributed PostgreSQL): every table is distributed by campaign_id, and there a primary key or a
-- unique constraint must include the distribution column. Members were keyed by member_id alone; they are now keyed
-- by (campaign_id, member_id), and a token is looked up with the campaign it is used on, so the look-up goes to the
-- one shard holding that campaign. Member ids stay random UUIDs, so dropping their global uniqueness loses nothing.
ALTER TABLE members DROP CONSTRAINT members_pkey;
ALTER TABLE members ADD PRIMARY KEY (campaign_id, member_id);
-- The primary key now leads with campaign_id, which is what this index served.
DROP INDEX members_by_campaign;
-- Signing in from a join link knows only the token, not yet the campaign: the one look-up by member id alone.
CREATE INDEX members_by_member ON members (member_id);
