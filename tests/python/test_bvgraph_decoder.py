"""The independent BVGraph decoder (bvgraph_decoder.py) against LAW's own files: what it reads
from cnr-2000.graph and cnr-2000-t.graph must be the arcs of cnr-2000.arcs.tsv.xz and their
transpose. tests/codecs/bvgraph_files_test.cc then trusts it to check the files crawldb writes."""

import lzma
import unittest

import bvgraph_decoder
from shared_data import shared_data_path


class BvGraphDecoderTest(unittest.TestCase):
    def test_reads_laws_cnr_2000_and_its_transpose(self):
        arcs_path = shared_data_path("cnr-2000/cnr-2000.arcs.tsv.xz")
        basename = shared_data_path("cnr-2000/cnr-2000.graph")[: -len(".graph")]
        with lzma.open(arcs_path, "rt") as lines:
            expected = [tuple(map(int, line.split())) for line in lines]
        self.assertEqual(len(expected), 3216152)
        self.assertEqual(list(bvgraph_decoder.arcs_of(basename)), expected)
        transposed = sorted((dst, src) for src, dst in expected)
        self.assertEqual(list(bvgraph_decoder.arcs_of(basename + "-t")), transposed)


if __name__ == "__main__":
    unittest.main()
