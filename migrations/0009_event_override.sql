-- A rule of the game the table chose to break: an event appended with an override keeps its reason here, and every
-- fold of the log (appends, rebuilds, state at N, undo's re-check, the audit) folds it with that reason, as if the
-- rule had allowed it. NULL for every event logged within the rules, so old rows need nothing written.
ALTER TABLE events ADD COLUMN override text;
