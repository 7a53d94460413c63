"""A client for dqlite's wire protocol, standard library only (crawldb-node, docs/cluster.md).

The protocol: https://canonical.com/dqlite/docs/reference/wire-protocol. A connection starts with
the protocol version (one word, 1); then each request is a message (a one-word header: body size
in words, type, revision) answered by one response message. Words are 8 bytes, little endian;
text is zero-terminated and zero-padded to a word.

    cluster = Cluster(["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"])
    cluster.execute("INSERT INTO t VALUES (?)", (1,))
    columns, rows = cluster.query("SELECT * FROM t")

Only the leader runs statements. Cluster finds it, and when a request fails because the node is
no longer the leader (the statement did not run) it finds the new one and sends it again. A
connection lost after a request was sent is not retried: whether the statement committed is
unknown, and DqliteError(LOST) says so.
"""

import socket
import struct
import time

PROTOCOL_VERSION = 1

# Request types.
REQUEST_LEADER = 0
REQUEST_OPEN = 3
REQUEST_EXEC_SQL = 8
REQUEST_QUERY_SQL = 9
REQUEST_CLUSTER = 16

# Response types.
RESPONSE_FAILURE = 0
RESPONSE_NODE = 1
RESPONSE_SERVERS = 3
RESPONSE_DB = 4
RESPONSE_RESULT = 6
RESPONSE_ROWS = 7

# Value type codes of tuples.
INTEGER, FLOAT, TEXT, BLOB, NULL, UNIXTIME, ISO8601, BOOLEAN = 1, 2, 3, 4, 5, 9, 10, 11

ROWS_DONE = 0xFFFFFFFFFFFFFFFF
ROWS_PART = 0xEEEEEEEEEEEEEEEE

# Failure codes meaning "ask the leader": SQLITE_IOERR_NOT_LEADER, SQLITE_IOERR_LEADERSHIP_LOST.
NOT_LEADER_CODES = (10250, 10506)
# The code of DqliteError when the connection broke with a request in flight.
LOST = -1


class DqliteError(Exception):
    """A failure response (code, message), or a connection lost (code LOST)."""

    def __init__(self, code, message):
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message

    @property
    def not_leader(self):
        return self.code in NOT_LEADER_CODES


def pad(data):
    """data zero-padded to a whole number of words."""
    return data + b"\0" * (-len(data) % 8)


def encode_text(text):
    return pad(text.encode() + b"\0")


def encode_params(params):
    """A tuple of parameters: count and type codes (a byte each) padded to a word, then values."""
    if not params:
        return b""
    if len(params) > 255:
        raise ValueError("dqlite binds at most 255 parameters")
    types = bytearray([len(params)])
    values = bytearray()
    for value in params:
        if value is None:
            types.append(NULL)
            values += bytes(8)
        elif isinstance(value, bool):
            types.append(BOOLEAN)
            values += struct.pack("<Q", int(value))
        elif isinstance(value, int):
            types.append(INTEGER)
            values += struct.pack("<q", value)
        elif isinstance(value, float):
            types.append(FLOAT)
            values += struct.pack("<d", value)
        elif isinstance(value, str):
            types.append(TEXT)
            values += encode_text(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            types.append(BLOB)
            values += struct.pack("<Q", len(value)) + pad(bytes(value))
        else:
            raise TypeError(f"cannot bind a {type(value).__name__}")
    return pad(bytes(types)) + bytes(values)


class Reader:
    """Reads the fields of one response body in order."""

    def __init__(self, body):
        self.body = body
        self.offset = 0

    def uint64(self):
        (value,) = struct.unpack_from("<Q", self.body, self.offset)
        self.offset += 8
        return value

    def int64(self):
        (value,) = struct.unpack_from("<q", self.body, self.offset)
        self.offset += 8
        return value

    def uint32(self):
        (value,) = struct.unpack_from("<I", self.body, self.offset)
        self.offset += 4
        return value

    def text(self):
        end = self.body.index(b"\0", self.offset)
        text = self.body[self.offset : end].decode()
        self.offset = end + 1 + (-(end + 1 - self.offset) % 8)
        return text

    def peek_uint64(self):
        return struct.unpack_from("<Q", self.body, self.offset)[0]


def decode_rows(body):
    """A ROWS response body: (column names, rows as tuples, True when the result is complete)."""
    reader = Reader(body)
    names = [reader.text() for _ in range(reader.uint64())]
    header_words = (len(names) + 15) // 16
    rows = []
    while True:
        marker = reader.peek_uint64()
        if marker in (ROWS_DONE, ROWS_PART):
            return names, rows, marker == ROWS_DONE
        header = body[reader.offset : reader.offset + 8 * header_words]
        reader.offset += 8 * header_words
        row = []
        for column in range(len(names)):
            kind = header[column // 2] >> (4 * (column % 2)) & 0xF
            if kind in (INTEGER, UNIXTIME):
                row.append(reader.int64())
            elif kind == FLOAT:
                row.append(struct.unpack("<d", struct.pack("<Q", reader.uint64()))[0])
            elif kind in (TEXT, ISO8601):
                row.append(reader.text())
            elif kind == BLOB:
                size = reader.uint64()
                row.append(bytes(body[reader.offset : reader.offset + size]))
                reader.offset += size + (-size % 8)
            elif kind == NULL:
                reader.uint64()
                row.append(None)
            elif kind == BOOLEAN:
                row.append(reader.uint64() != 0)
            else:
                raise DqliteError(0, f"unknown value type {kind} in a row")
        rows.append(tuple(row))


def decode_failure(body):
    """(code, message) of a FAILURE body. dqlite 1.11 sends a query that fails after its first
    step with the column names (count, names) still in front of the code and message; such a
    body is recognised by parsing to its exact end."""
    try:
        reader = Reader(body)
        names = reader.uint64()
        if names < 2**16:
            for _ in range(names):
                reader.text()
            code = reader.uint64()
            message = reader.text()
            if reader.offset == len(body):
                return code, message
    except (ValueError, struct.error, UnicodeDecodeError):
        pass
    reader = Reader(body)
    return reader.uint64(), reader.text()


class Connection:
    """One connection to one node; a database opened on it runs statements if it is the leader."""

    def __init__(self, address, timeout=30.0):
        self.address = address
        host, port = address.rsplit(":", 1)
        self.socket = socket.create_connection((host, int(port)), timeout=timeout)
        self.socket.sendall(struct.pack("<Q", PROTOCOL_VERSION))
        self.db_id = None

    def close(self):
        self.socket.close()

    def request(self, kind, body):
        """Sends one request, returns (response type, body); a failure response raises."""
        try:
            self.socket.sendall(struct.pack("<IBBH", len(body) // 8, kind, 0, 0) + body)
            header = self._receive(8)
            words, response_type = struct.unpack_from("<IB", header)
            response = self._receive(8 * words)
        except OSError as error:
            raise DqliteError(LOST, f"connection to {self.address} lost: {error}") from error
        if response_type == RESPONSE_FAILURE:
            raise DqliteError(*decode_failure(response))
        return response_type, response

    def _receive(self, size):
        data = bytearray()
        while len(data) < size:
            chunk = self.socket.recv(size - len(data))
            if not chunk:
                raise OSError("closed by the node")
            data += chunk
        return bytes(data)

    def leader(self):
        """The leader's address as this node knows it ('' when it knows none)."""
        _, body = self.request(REQUEST_LEADER, struct.pack("<Q", 0))
        reader = Reader(body)
        reader.uint64()  # the leader's id
        return reader.text()

    def cluster(self):
        """[(id, address)] of the group's nodes."""
        _, body = self.request(REQUEST_CLUSTER, struct.pack("<Q", 0))
        reader = Reader(body)
        return [(reader.uint64(), reader.text()) for _ in range(reader.uint64())]

    def open(self, name):
        _, body = self.request(REQUEST_OPEN, encode_text(name) + struct.pack("<Q", 0) + encode_text(""))
        self.db_id = Reader(body).uint32()

    def execute(self, sql, params=()):
        """Runs sql (several statements allowed without params); (last insert id, rows changed)."""
        body = struct.pack("<Q", self.db_id) + encode_text(sql) + encode_params(params)
        _, result = self.request(REQUEST_EXEC_SQL, body)
        reader = Reader(result)
        return reader.uint64(), reader.uint64()

    def query(self, sql, params=()):
        """Runs one statement; (column names, rows)."""
        body = struct.pack("<Q", self.db_id) + encode_text(sql) + encode_params(params)
        _, response = self.request(REQUEST_QUERY_SQL, body)
        names, rows, done = decode_rows(response)
        while not done:
            try:
                header = self._receive(8)
                words, _ = struct.unpack_from("<IB", header)
                names_part, more, done = decode_rows(self._receive(8 * words))
            except OSError as error:
                raise DqliteError(LOST, f"connection to {self.address} lost: {error}") from error
            rows.extend(more)
        return names, rows


class Cluster:
    """Statements sent to whichever node of `addresses` leads, found again when it changes."""

    def __init__(self, addresses, database="crawl.db", timeout=10.0):
        self.addresses = list(addresses)
        self.database = database
        self.timeout = timeout
        self.connection = None

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def find_leader(self):
        """Connects to the leader and opens the database; waits up to timeout for one."""
        self.close()
        deadline = time.monotonic() + self.timeout
        last = "no node answered"
        while time.monotonic() < deadline:
            for address in self.addresses:
                try:
                    probe = Connection(address, timeout=2.0)
                    try:
                        leader = probe.leader()
                    finally:
                        probe.close()
                    if not leader:
                        last = f"{address} knows no leader"
                        continue
                    connection = Connection(leader)
                    connection.open(self.database)
                    self.connection = connection
                    return leader
                except (OSError, DqliteError) as error:
                    last = f"{address}: {error}"
            time.sleep(0.1)
        raise DqliteError(LOST, f"no leader within {self.timeout} s: {last}")

    def _run(self, method, sql, params):
        for _ in range(3):
            if self.connection is None:
                self.find_leader()
            try:
                return getattr(self.connection, method)(sql, params)
            except DqliteError as error:
                if not error.not_leader:
                    if error.code == LOST:
                        self.close()
                    raise
                self.close()
        raise DqliteError(LOST, "the leader kept changing")

    def execute(self, sql, params=()):
        return self._run("execute", sql, params)

    def query(self, sql, params=()):
        return self._run("query", sql, params)
