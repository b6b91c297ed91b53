-- One physical box of cards can serve several campaigns (issue 42: the shared box). The owner of each campaign names
-- the box its cards come from; the campaigns sharing one box hold the same `box_key`, a random key the first owner's
-- campaign was given and the other owners were told. Keyed by campaign_id, ready for Citus like every table; finding
-- a box's campaigns by its key is the one look-up across campaigns (docs/operations.md).
CREATE TABLE campaign_boxes (
    campaign_id uuid PRIMARY KEY REFERENCES campaigns (campaign_id),
    box_key text NOT NULL CHECK (box_key ~ '^box_[0-9a-f]{32}$'),
    name text NOT NULL CHECK (name <> '' AND char_length(name) <= 80),
    named_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaign_boxes_by_key ON campaign_boxes (box_key);
