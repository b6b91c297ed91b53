-- The event store: campaigns, their members, the append-only log, and the read models folded from it.

CREATE TABLE campaigns (
    campaign_id   uuid        PRIMARY KEY,
    game          text        NOT NULL,
    name          text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    -- The position of the campaign's last event. Appends lock this row, which is what makes positions gapless
    -- and in commit order: the next writer cannot take position N+1 until the one holding N has committed.
    last_position bigint      NOT NULL DEFAULT 0
);

-- Tokens are credentials, not campaign facts: the log records that a member joined, never their token.
CREATE TABLE members (
    member_id   uuid        PRIMARY KEY,
    campaign_id uuid        NOT NULL REFERENCES campaigns (campaign_id),
    name        text        NOT NULL,
    role        text        NOT NULL CHECK (role IN ('owner', 'player', 'viewer')),
    token_hash  bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX members_by_campaign ON members (campaign_id);

CREATE TABLE events (
    campaign_id     uuid        NOT NULL REFERENCES campaigns (campaign_id),
    position        bigint      NOT NULL CHECK (position > 0),
    event_id        uuid        NOT NULL,
    batch_id        uuid        NOT NULL,
    type            text        NOT NULL,
    schema_version  smallint    NOT NULL DEFAULT 1,
    data            jsonb       NOT NULL,
    actor           text        NOT NULL,
    recorded_at     timestamptz NOT NULL,
    occurred_at     timestamptz,
    -- Who the event concerns, as the game's fold says; kept for history filters.
    character_id    text,
    global_position bigint      GENERATED ALWAYS AS IDENTITY,
    tx_id           xid8        NOT NULL DEFAULT pg_current_xact_id(),
    PRIMARY KEY (campaign_id, position),
    UNIQUE (campaign_id, event_id)
);
CREATE INDEX events_by_batch ON events (campaign_id, batch_id);
CREATE INDEX events_by_type ON events (campaign_id, type, position);
CREATE INDEX events_by_character ON events (campaign_id, character_id, position) WHERE character_id IS NOT NULL;
-- The feed across campaigns reads in (tx_id, global_position) order below the oldest running transaction.
CREATE INDEX events_feed ON events (tx_id, global_position);

CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'recorded events cannot be changed or deleted (% on events); undo appends a marker instead', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER events_no_update_or_delete
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

-- The inline read model: the fold of the effective log, written in the same transaction as the events.
CREATE TABLE projections (
    campaign_id uuid   NOT NULL REFERENCES campaigns (campaign_id),
    name        text   NOT NULL,
    position    bigint NOT NULL,
    state       jsonb  NOT NULL,
    PRIMARY KEY (campaign_id, name)
);

-- Folded states every so many events, for time travel and undo on long campaigns.
CREATE TABLE snapshots (
    campaign_id uuid   NOT NULL REFERENCES campaigns (campaign_id),
    position    bigint NOT NULL,
    state       jsonb  NOT NULL,
    PRIMARY KEY (campaign_id, position)
);
