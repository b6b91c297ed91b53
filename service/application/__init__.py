"""What the service does with the log: narration, live feeds, folding a whole log again, export and import, dice,
the catalogues and the audits. Built on the store and the platform; it knows nothing of HTTP."""
