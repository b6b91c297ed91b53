-- A table display (a tablet or a TV in the middle of the table) is a member with the role `display`: its link reads
-- the campaign and follows it live, every write is refused (service/http/auth.py), and the owner revokes it like any
-- member, which ends its open streams at once.
ALTER TABLE members DROP CONSTRAINT members_role_check;
ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN ('owner', 'player', 'viewer', 'display'));
