#!/usr/bin/python3
"""Lists the tests that the last ctest run in BUILD_DIR skipped, by reason, from
BUILD_DIR/Testing/Temporary/LastTest.log. ctest itself names the skipped GoogleTest cases
without their reasons, and cannot see a skipped case inside a Python test file (one ctest test
per file). scripts/test.sh prints this after the tests.

    scripts/skipped_tests.py BUILD_DIR
"""

import os
import re
import sys

# A test's name may hold spaces: "Suite/Test.Case/Param  # GetParam() = ...".
TEST_START = re.compile(r"^\d+/\d+ Testing: (.+)$", re.MULTILINE)
# GoogleTest: "<file>:<line>: Skipped" then the message, up to a SCOPED_TRACE's "Google Test
# trace:" or "[  SKIPPED ]".
GTEST_SKIP = re.compile(r": Skipped\n(.*?)\n(?:Google Test trace:|\[  SKIPPED \])", re.DOTALL)
# unittest -v: "test_name (module.Class.test_name) ... skipped 'message'".
UNITTEST_SKIP = re.compile(r"^(\w+) \([\w.]+\) \.\.\. skipped '(.*)'$", re.MULTILINE)


def skipped(log):
    """[(test, reason)] in the order of the log."""
    found = []
    starts = list(TEST_START.finditer(log))
    for number, start in enumerate(starts):
        end = starts[number + 1].start() if number + 1 < len(starts) else len(log)
        output = log[start.end():end]
        for match in GTEST_SKIP.finditer(output):
            found.append((start.group(1), match.group(1).strip()))
        for match in UNITTEST_SKIP.finditer(output):
            found.append((f"{start.group(1)}: {match.group(1)}", match.group(2)))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = os.path.join(argv[1], "Testing", "Temporary", "LastTest.log")
    with open(path, encoding="utf-8", errors="replace") as f:
        found = skipped(f.read())
    if not found:
        print("No test was skipped.")
        return 0
    by_reason = {}
    for test, reason in found:
        by_reason.setdefault(reason, []).append(test)
    print(f"Skipped: {len(found)} tests")
    for reason in sorted(by_reason):
        print(f"  {reason} ({len(by_reason[reason])}):")
        for test in sorted(by_reason[reason]):
            print(f"    {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
