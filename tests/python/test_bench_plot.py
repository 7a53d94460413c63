"""The benchmarks' --plot (bench/plot.sh, bench/plot.py): a bench script run on a stand-in
program draws the table the program printed into a PNG, passes the other arguments on, and keeps
the program's failure; plot.py reads figures out of markdown cells."""

import os
import pathlib
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import plot  # noqa: E402

TABLE = """seeding 3 paper-004 URLs

| route | s | µs/URL | rows |
|---|---:|---:|---:|
| crawl_add(url, NULL, 0, 1000) | 0.01 | 3.40 | 3 |
| plain SQLite tables, set-wise | 0.01 | 1,200.5 (x) | 3 |
"""


class BenchPlotTest(unittest.TestCase):
    def setUp(self):
        temp = tempfile.TemporaryDirectory()
        self.addCleanup(temp.cleanup)
        self.dir = pathlib.Path(temp.name)
        (self.dir / "bench").mkdir()

    def run_seeding(self, exit_status, *args):
        """bench/seeding.sh on a stand-in seeding_benchmark that prints TABLE and its arguments."""
        program = self.dir / "bench" / "seeding_benchmark"
        program.write_text(f"#!/bin/sh\necho \"args: $*\"\ncat <<'EOF'\n{TABLE}EOF\n"
                           f"exit {exit_status}\n")
        program.chmod(0o755)
        return subprocess.run(["sh", str(ROOT / "bench" / "seeding.sh"), str(self.dir), *args],
                              capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, TMPDIR=str(self.dir)))

    def test_plot_writes_a_png_of_the_table(self):
        png = self.dir / "out" / "seeding.png"
        result = self.run_seeding(0, "--urls=3", f"--plot={png}")
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertIn("args: --urls=3\n", result.stdout)
        self.assertIn("| crawl_add(url, NULL, 0, 1000) |", result.stdout)
        self.assertIn(f"plot: {png}", result.stdout)
        header = png.read_bytes()[:24]
        self.assertEqual(b"\x89PNG\r\n\x1a\n", header[:8])
        self.assertEqual((800, 500), struct.unpack(">II", header[16:24]))
        self.assertEqual([], [p.name for p in self.dir.glob("crawldb-plot.*")])

    def test_a_failing_program_fails_the_script_and_draws_nothing(self):
        png = self.dir / "seeding.png"
        result = self.run_seeding(3, f"--plot={png}")
        self.assertEqual(3, result.returncode)
        self.assertFalse(png.exists())

    def test_without_plot_nothing_is_drawn(self):
        result = self.run_seeding(0)
        self.assertEqual(0, result.returncode, result.stderr)
        self.assertNotIn("plot:", result.stdout)

    def test_figures_are_the_cells_leading_numbers(self):
        [(heading, header, rows)] = list(plot.markdown_tables("## paper004\n\n" + TABLE))
        self.assertEqual("paper004", heading)
        self.assertEqual(["route", "s", "µs/URL", "rows"], header)
        self.assertEqual([3.4, 1200.5], [plot.figure(row[2]) for row in rows])
        self.assertNotEqual(plot.figure("n/a"), plot.figure("n/a"))  # NaN: no bar


if __name__ == "__main__":
    unittest.main()
