"""crawldb-node/dqlite_client.py: the wire encoding of parameters and rows, byte for byte as the
protocol document lays them out, and the client's conversation with a scripted node (handshake,
a failure response, finding the leader again after a 'not leader' failure)."""

import os
import socket
import struct
import sys
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "crawldb-node"))
import dqlite_client as dq  # noqa: E402


def word(value):
    return struct.pack("<Q", value)


class Encoding(unittest.TestCase):
    def test_parameters_are_a_padded_type_header_then_one_field_each(self):
        encoded = dq.encode_params((7, 1.5, "ab", b"xyz", None, True))
        header = bytes([6, dq.INTEGER, dq.FLOAT, dq.TEXT, dq.BLOB, dq.NULL, dq.BOOLEAN, 0])
        values = (struct.pack("<q", 7) + struct.pack("<d", 1.5) + b"ab\0" + bytes(5) + word(3)
                  + b"xyz" + bytes(5) + bytes(8) + word(1))
        self.assertEqual(encoded, header + values)

    def test_eight_parameters_take_a_second_header_word(self):
        encoded = dq.encode_params(tuple(range(8)))
        self.assertEqual(encoded[:16], bytes([8] + [dq.INTEGER] * 8 + [0] * 7))
        self.assertEqual(len(encoded), 16 + 8 * 8)

    def test_no_parameters_send_no_tuple(self):
        self.assertEqual(dq.encode_params(()), b"")

    def test_an_unbindable_value_is_refused(self):
        with self.assertRaisesRegex(TypeError, "cannot bind a list"):
            dq.encode_params(([1],))

    def test_text_is_zero_terminated_and_padded_to_a_word(self):
        self.assertEqual(dq.encode_text("abcdefgh"), b"abcdefgh" + bytes(8))
        self.assertEqual(dq.encode_text(""), bytes(8))

    def test_rows_decode_every_type_and_both_end_markers(self):
        names = ["i", "f", "t", "b", "n"]
        header = bytes([dq.INTEGER | dq.FLOAT << 4, dq.TEXT | dq.BLOB << 4, dq.NULL]) + bytes(5)
        row = (struct.pack("<q", -2) + struct.pack("<d", 0.25) + dq.encode_text("héllo")
               + word(2) + b"\1\2" + bytes(6) + bytes(8))
        body = word(5) + b"".join(dq.encode_text(n) for n in names) + header + row
        self.assertEqual(dq.decode_rows(body + word(dq.ROWS_DONE)),
                         (names, [(-2, 0.25, "héllo", b"\1\2", None)], True))
        self.assertEqual(dq.decode_rows(body + word(dq.ROWS_PART))[2], False)

    def test_seventeen_columns_take_two_header_words(self):
        names = [f"c{i}" for i in range(17)]
        header = bytes([dq.INTEGER | dq.INTEGER << 4] * 8) + bytes([dq.INTEGER]) + bytes(7)
        body = (word(17) + b"".join(dq.encode_text(n) for n in names) + header
                + b"".join(struct.pack("<q", i) for i in range(17)) + word(dq.ROWS_DONE))
        self.assertEqual(dq.decode_rows(body)[1], [tuple(range(17))])


    def test_a_failure_decodes_with_or_without_column_names_in_front(self):
        self.assertEqual(dq.decode_failure(word(1) + dq.encode_text("no such table: t")),
                         (1, "no such table: t"))
        self.assertEqual(dq.decode_failure(word(4) + dq.encode_text("not four names")),
                         (4, "not four names"))
        # dqlite 1.11: a query failing after its first step keeps its column names in front.
        self.assertEqual(dq.decode_failure(word(2) + dq.encode_text("id") + dq.encode_text("url")
                                           + word(1) + dq.encode_text("refused")),
                         (1, "refused"))


class ScriptedNode:
    """A listening socket that answers each request with the next scripted (type, body)."""

    def __init__(self):
        self.requests = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self.server.getsockname()[1]

    def start(self, answers):
        self.answers = list(answers)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()
        return self

    def serve(self):
        while self.answers:
            connection, _ = self.server.accept()
            with connection:
                self.handshake = connection.recv(8, socket.MSG_WAITALL)
                while self.answers:
                    header = connection.recv(8, socket.MSG_WAITALL)
                    if len(header) < 8:
                        break
                    words, kind = struct.unpack_from("<IB", header)
                    body = connection.recv(8 * words, socket.MSG_WAITALL) if words else b""
                    self.requests.append((kind, body))
                    answer_type, answer = self.answers.pop(0)
                    connection.sendall(struct.pack("<IBBH", len(answer) // 8, answer_type, 0, 0)
                                       + answer)
                    if answer_type == dq.RESPONSE_NODE:
                        break  # a leader probe: the client closes this connection

    def close(self):
        self.server.close()


def failure(code, message):
    return (dq.RESPONSE_FAILURE, word(code) + dq.encode_text(message))


class Conversation(unittest.TestCase):
    def test_a_failure_response_raises_with_its_code_and_message(self):
        node = ScriptedNode().start([failure(1, "no such table: t")])
        self.addCleanup(node.close)
        connection = dq.Connection(node.address)
        self.addCleanup(connection.close)
        connection.db_id = 0
        with self.assertRaises(dq.DqliteError) as raised:
            connection.execute("SELECT * FROM t", (1,))
        self.assertEqual((raised.exception.code, raised.exception.message), (1, "no such table: t"))
        self.assertFalse(raised.exception.not_leader)
        node.thread.join(5)
        self.assertEqual(node.handshake, word(1))
        self.assertEqual(node.requests[0],
                         (dq.REQUEST_EXEC_SQL, word(0) + dq.encode_text("SELECT * FROM t")
                          + dq.encode_params((1,))))

    def test_cluster_sends_again_to_the_leader_after_not_leader(self):
        node = ScriptedNode()
        self.addCleanup(node.close)
        leader = (dq.RESPONSE_NODE, word(1) + dq.encode_text(node.address))
        node.start([leader, (dq.RESPONSE_DB, bytes(8)), failure(10250, "not leader"),
                    leader, (dq.RESPONSE_DB, bytes(8)), (dq.RESPONSE_RESULT, word(5) + word(1))])
        cluster = dq.Cluster([node.address], database="crawl.db")
        self.addCleanup(cluster.close)
        self.assertEqual(cluster.execute("INSERT INTO t VALUES (1)"), (5, 1))
        self.assertEqual([kind for kind, _ in node.requests],
                         [dq.REQUEST_LEADER, dq.REQUEST_OPEN, dq.REQUEST_EXEC_SQL,
                          dq.REQUEST_LEADER, dq.REQUEST_OPEN, dq.REQUEST_EXEC_SQL])

    def test_no_leader_within_the_timeout_is_an_error(self):
        node = ScriptedNode().start([(dq.RESPONSE_NODE, word(0) + dq.encode_text(""))] * 50)
        self.addCleanup(node.close)
        cluster = dq.Cluster([node.address], timeout=0.3)
        with self.assertRaisesRegex(dq.DqliteError, "no leader within 0.3 s: .* knows no leader"):
            cluster.execute("SELECT 1")


if __name__ == "__main__":
    unittest.main()
