"""Runs a statement with another connection's commit injected at one of its steps: the harness
of the tests of reads that meet commits in the middle of a statement."""

import sqlite3


def run_with_commit_at_step(db, run, commit, step, instructions_per_step=1):
    """Calls run() (a statement on `db`) with commit() called at its `step`-th progress-handler
    call (every `instructions_per_step` VM instructions); returns (fired, result), result being
    run()'s value or the error it raised as text. A commit that meets the statement's write
    lock (sqlite3.OperationalError) is skipped."""
    count = [0]
    fired = [False]

    def handler():
        count[0] += 1
        if count[0] == step and not fired[0]:
            fired[0] = True
            try:
                commit()
            except sqlite3.OperationalError:
                pass  # the statement held the write lock at that step
        return 0

    db.set_progress_handler(handler, instructions_per_step)
    try:
        result = run()
    except sqlite3.Error as error:
        result = str(error)
    finally:
        db.set_progress_handler(None, 1)
    return fired[0], result
