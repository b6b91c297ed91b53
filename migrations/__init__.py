"""Forward-only SQL migrations, applied in file-name order by `service.migrate`."""
