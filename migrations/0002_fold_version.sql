-- Which version of its game's fold made each projection. When the code of a fold changes (a new rule, a new field
-- in its state), projections and snapshots folded by the old code no longer match what the new code would make;
-- the service folds those campaigns again at start-up. '' marks projections folded before this was recorded.
ALTER TABLE projections ADD COLUMN fold_version text NOT NULL DEFAULT '';
