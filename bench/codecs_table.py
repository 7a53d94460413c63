"""Turns codecs_benchmark's JSON output into the markdown table that bench/codecs.sh prints.

Benchmark names are "<encode|decode>/<code>[:<query>]/<distribution>" (codecs_benchmark.cc).
One row per decode benchmark, in the program's order; its encode time is that of
"encode/<code>/<distribution>". Times are CPU time per value; with --benchmark_repetitions the
median of the repetitions is used. The ratio is decode time over varint's decode time for the
same distribution in the same run.

Usage: codecs_table.py RESULTS.json
"""

import json
import statistics
import sys

NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
BASELINE = "varint"


def ns_per_value(run):
    return run["cpu_time"] * NS_PER_UNIT[run["time_unit"]] / run["values"]


def main(path):
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    runs = {}  # name -> list of runs, in the program's order
    for run in results["benchmarks"]:
        if run.get("run_type", "iteration") != "iteration":
            continue
        if run.get("error_occurred"):
            sys.exit(f"codecs_table.py: {run['name']} failed: {run.get('error_message', '')}")
        runs.setdefault(run["name"], []).append(run)

    def median_ns(name):
        return statistics.median(ns_per_value(r) for r in runs[name]) if name in runs else None

    print("| code | distribution | bits/value | encode ns/value | decode ns/value "
          f"| decode ÷ {BASELINE} |")
    print("|---|---|---:|---:|---:|---:|")
    missing_baseline = False
    any_index = False
    for name, name_runs in runs.items():
        op, code, distribution = name.split("/")
        if op != "decode":
            continue
        decode = median_ns(name)
        encode = median_ns(f"encode/{code.split(':')[0]}/{distribution}")
        baseline = median_ns(f"decode/{BASELINE}/{distribution}")
        if baseline is None:
            missing_baseline = True
        label = code.replace(":", " ")
        bits = name_runs[0]["bits_per_value"]
        index_bits = name_runs[0].get("index_bits_per_value")
        any_index = any_index or bool(index_bits)
        bits_text = f"{bits:.2f}" + (f" (+{index_bits:.2f})" if index_bits else "")
        encode_text = f"{encode:.2f}" if encode is not None else "–"
        ratio_text = f"{decode / baseline:.2f}" if baseline else "–"
        print(f"| {label} | {distribution} | {bits_text} | {encode_text} | {decode:.2f} "
              f"| {ratio_text} |")
    if any_index:
        print()
        print("bits/value in parentheses: the in-memory select index on top of the encoding.")
    if missing_baseline:
        print()
        print(f"The {BASELINE} baseline was filtered out, so some ratios are missing.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
