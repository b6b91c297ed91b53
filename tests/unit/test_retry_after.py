"""Every 503 says when to try again, as the OpenAPI document promises of each one."""

from __future__ import annotations

from quartermaster.service.http.problems import RETRY_SOON_SECONDS, Problem, on_problem, respond


def test_a_503_without_a_wait_of_its_own_says_to_retry_soon():
    answer = respond(503, "The campaign kept changing while the roll was read; nothing was written.", "busy")
    assert answer.headers["Retry-After"] == str(RETRY_SOON_SECONDS)


def test_a_503_that_names_its_wait_keeps_it():
    answer = respond(503, "The database does not answer.", "database-unavailable", headers={"Retry-After": "2"})
    assert answer.headers["Retry-After"] == "2"


def test_a_503_raised_as_a_problem_says_when_to_retry_and_other_statuses_do_not():
    busy = on_problem(None, Problem(503, "The campaign kept changing.", kind="busy"))  # type: ignore[arg-type]
    assert busy.headers["Retry-After"] == str(RETRY_SOON_SECONDS)
    refused = on_problem(None, Problem(422, "Nothing was written.", kind="rejected"))  # type: ignore[arg-type]
    assert "Retry-After" not in refused.headers
