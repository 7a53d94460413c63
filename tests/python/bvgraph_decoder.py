"""A small BVGraph decoder, independent of crawldb's C++ code: reads LAW's WebGraph files
(format version 0, default codes: outdegree gamma, reference unary, block count and blocks gamma,
interval count and intervals gamma, residuals zeta_k) and yields the adjacency lists.

    /usr/bin/python3 bvgraph_decoder.py BASENAME ARCS.tsv.xz

decodes BASENAME.graph and exits 0 when its arcs equal the `src<TAB>dst` lines of the .xz file.
"""

import lzma
import sys


def read_properties(path):
    properties = {}
    with open(path, encoding="latin-1") as lines:
        for line in lines:
            line = line.strip()
            if line and line[0] not in "#!" and "=" in line:
                key, value = line.split("=", 1)
                properties[key.strip()] = value.strip()
    return properties


class Bits:
    """The bits of a byte string, most significant first, as a '0'/'1' text."""

    def __init__(self, data):
        self.text = bin(int.from_bytes(b"\x01" + data, "big"))[3:]
        self.at = 0

    def unary(self):
        one = self.text.index("1", self.at)
        zeros = one - self.at
        self.at = one + 1
        return zeros

    def gamma(self):
        m = self.unary()
        value = int("1" + self.text[self.at:self.at + m], 2) if m else 1
        self.at += m
        return value - 1

    def zeta(self, k):
        h = self.unary()
        left = 1 << (h * k)
        # Minimal binary code of y - left in [0, 2^((h+1)k) - left): short codewords first.
        s = (h + 1) * k
        short = int(self.text[self.at:self.at + s - 1], 2) if s > 1 else 0
        if short < left:
            self.at += s - 1
            return left + short - 1
        value = int(self.text[self.at:self.at + s], 2)
        self.at += s
        return value - 1


def nat2int(x):
    return x >> 1 if x % 2 == 0 else -((x + 1) >> 1)


def lists(basename):
    properties = read_properties(basename + ".properties")
    assert properties.get("version", "0") == "0"
    assert properties.get("compressionflags", "") == "", "only the default codes"
    nodes = int(properties["nodes"])
    window = int(properties["windowsize"])
    min_interval = int(properties["minintervallength"])
    k = int(properties.get("zetak", "3"))
    with open(basename + ".graph", "rb") as graph:
        bits = Bits(graph.read())
    recent = {}
    for node in range(nodes):
        degree = bits.gamma()
        successors = []
        if degree:
            ref = bits.unary() if window else 0
            if ref:
                reference = recent[node - ref]
                blocks = [bits.gamma() + (1 if i else 0) for i in range(bits.gamma())]
                at = 0
                for i, length in enumerate(blocks):
                    if i % 2 == 0:
                        successors += reference[at:at + length]
                    at += length
                if len(blocks) % 2 == 0:
                    successors += reference[at:]
            left = degree - len(successors)
            if left and min_interval:
                start = None
                for i in range(bits.gamma()):
                    gap = bits.gamma()
                    start = node + nat2int(gap) if i == 0 else start + gap + 1
                    length = bits.gamma() + min_interval
                    successors += range(start, start + length)
                    start += length
                    left -= length
            previous = None
            for i in range(left):
                code = bits.zeta(k)
                previous = node + nat2int(code) if i == 0 else previous + code + 1
                successors.append(previous)
            successors.sort()
        recent[node] = successors
        recent.pop(node - window - 1, None)
        yield node, successors


def arcs_of(basename):
    for node, successors in lists(basename):
        for successor in successors:
            yield node, successor


def main():
    basename, arcs_path = sys.argv[1], sys.argv[2]
    count = 0
    decoded = arcs_of(basename)
    with lzma.open(arcs_path, "rt") as expected:
        for (src, dst), line in zip(decoded, expected):
            want = line.split()
            if (str(src), str(dst)) != (want[0], want[1]):
                print(f"arc {count}: decoded {src} {dst}, expected {line.strip()}")
                return 1
            count += 1
        if next(expected, None) is not None:
            print(f"the graph ends after {count} arcs; the arcs file goes on")
            return 1
    if next(decoded, None) is not None:
        print(f"the arcs file ends after {count} arcs; the graph goes on")
        return 1
    print(f"{count} arcs equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
