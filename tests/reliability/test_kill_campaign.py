"""The kill campaign's short form (kill_campaign.py; the full one: scripts/kill_campaign.sh):
CRAWLDB_KILL_CAMPAIGN_KILLS kills (50 in the release build) of a writer doing mixed work on the
four tables, each followed by a check of the file; no acknowledged transaction lost, no check
failure, and kills that landed inside an optimize, an import and a commit."""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
KILLS = int(os.environ.get("CRAWLDB_KILL_CAMPAIGN_KILLS", "50"))


class KillCampaignTest(unittest.TestCase):
    def test_kills_lose_nothing(self):
        if KILLS == 0:
            self.skipTest("the kill campaign runs in the release build alone (the sanitized "
                          "half of CI has no time for it); run scripts/kill_campaign.sh for the "
                          "full form")
        result = subprocess.run(
            [sys.executable, os.path.join(HERE, "kill_campaign.py"), str(KILLS),
             "--extension", os.environ["CRAWLDB_EXTENSION"]],
            capture_output=True, text=True, timeout=600)
        print(result.stdout, result.stderr, sep="\n")
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-3000:])
        summary = dict(re.findall(r"^([a-z ]+): (.*)$", result.stdout, re.MULTILINE))
        self.assertEqual(summary["kills"], str(KILLS))
        self.assertEqual(summary["lost"], "0")
        self.assertEqual(summary["check failures"], "0")
        self.assertGreater(int(summary["transactions acknowledged"].split()[0]), KILLS)
        landed = {where.strip(): int(count) for where, count in
                  re.findall(r"([a-z ]+?) (\d+)(?:,|$)", summary["kills landed"])}
        for where in ("optimize", "import", "commit", "wal mode", "delete mode"):
            self.assertGreater(landed.get(where, 0), 0, f"no kill landed inside {where}: "
                               f"{summary['kills landed']}")


if __name__ == "__main__":
    unittest.main()
