"""The folds: state types and pure apply() functions per game. No I/O."""
