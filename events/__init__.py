"""What can happen: msgspec event types for every game Quartermaster tracks. No I/O, no project imports."""
