"""The process's limit of open files (descriptors): raised at start from its soft value to its hard one.

Every connection a client holds open is a descriptor, and the soft limit many systems start a process with (1,024) is
reached by as many slow clients. The hard limit is what the operator allows; the soft one is only where a process
starts, and any process may raise it up to the hard one, so `serve` does, and says so.
"""

from __future__ import annotations

import resource


def raise_to_hard_limit() -> str:
    """Raise the soft limit of open files to the hard one; a sentence saying what the limit is now, and was."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard:
        return f"Open files: at most {_count(soft)}, the hard limit, as the process started."
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as error:  # some systems refuse an unlimited soft value: keep what there is
        return f"Open files: at most {_count(soft)}; raising it to the hard limit ({_count(hard)}) failed: {error}."
    return f"Open files: raised the soft limit from {_count(soft)} to the hard limit, {_count(hard)}."


def _count(limit: int) -> str:
    return "unlimited" if limit == resource.RLIM_INFINITY else f"{limit:,}"
