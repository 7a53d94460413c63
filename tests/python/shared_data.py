"""The shared real data sets (../shared/data beside the checkout) for the Python tests.

A test that needs one calls `shared_data_path(relative)`: when the file is missing the test is
skipped with a message naming it, unless CRAWLDB_REQUIRE_SHARED_DATA=1 (CI sets it), which makes
a missing file a failure.
"""

import os
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def shared_data_root():
    return os.environ.get("CRAWLDB_SHARED_DATA") or os.path.join(ROOT, "..", "shared", "data")


def shared_data_path(relative):
    path = os.path.join(shared_data_root(), relative)
    if not os.path.exists(path):
        message = f"missing shared data file {os.path.normpath(path)}"
        if os.environ.get("CRAWLDB_REQUIRE_SHARED_DATA") == "1":
            raise AssertionError(message + " (CRAWLDB_REQUIRE_SHARED_DATA=1)")
        raise unittest.SkipTest(message)
    return path
