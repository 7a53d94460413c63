"""scripts/check_layers.py: the repository passes, and a tree that breaks each rule is caught."""

import os
import pathlib
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_layers.py"

CMAKE = "set(STORE_SOURCES\n    urls/url_store.cc links/link_store.cc)\n"


def run(root):
    result = subprocess.run(["/usr/bin/python3", str(SCRIPT), str(root)],
                            capture_output=True, text=True)
    return result.returncode, result.stdout


class CheckLayersTest(unittest.TestCase):
    def tree(self, files):
        temp = tempfile.TemporaryDirectory()
        self.addCleanup(temp.cleanup)
        root = pathlib.Path(temp.name)
        for path, text in {"extension/CMakeLists.txt": CMAKE, **files}.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return root

    def test_the_repository_keeps_its_layers(self):
        code, out = run(ROOT)
        self.assertEqual(0, code, out)
        self.assertIn("layers: 0 violations", out)

    def test_each_rule_is_enforced(self):
        cases = {
            "codecs/a.cc": '#include "extension/urls/url_store.h"\n',
            "extension/urls/url_store.cc": '#include "extension/common/status.h"\n',
            "extension/links/link_store.h": '#include "extension/urls/url_store.h"\n',
            "extension/identity/x.cc": '#include "extension/urls/url_store.h"\n',
            "extension/graph/x.cc": '#include "extension/links/link_store.h"\n',
            "extension/links/links_table.cc": '#include "extension/urls/urls_table.h"\n'
                                              '#include "extension/frontier/frontier_table.h"\n',
            "extension/urls/urls_table.cc": "#include <sqlite3.h>\n",
        }
        for path, text in cases.items():
            with self.subTest(path=path):
                code, out = run(self.tree({path: text}))
                self.assertEqual(1, code, out)
                self.assertIn(f"{path}:", out)
        # What the rules allow passes.
        code, out = run(self.tree({
            "extension/urls/urls_table.cc": '#include "extension/urls/url_store.h"\n'
                                            '#include "extension/common/status.h"\n',
            "extension/urls/url_store.cc": '#include "extension/identity/url_normalizer.h"\n'
                                           '#include "codecs/varint.h"\n',
            "extension/frontier/frontier_table.cc": '#include "extension/urls/url_ids.h"\n',
            "extension/links/link_store.cc": '#include "extension/graph/pagerank.h"\n'}))
        self.assertEqual(0, code, out)


if __name__ == "__main__":
    unittest.main()
