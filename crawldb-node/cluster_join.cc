#include "crawldb-node/cluster_join.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace crawldb::node {
namespace {

// Wire protocol version 1; message type codes (dqlite's protocol.h).
constexpr uint64_t kProtocolVersion = 1;
constexpr uint8_t kRequestLeader = 0;
constexpr uint8_t kRequestAdd = 12;
constexpr uint8_t kRequestAssign = 13;
constexpr uint8_t kResponseFailure = 0;
constexpr uint8_t kResponseNode = 1;
constexpr uint8_t kResponseEmpty = 8;
constexpr uint64_t kRoleVoter = 0;

void PutUint64(std::string* body, uint64_t value) {
  for (int byte = 0; byte < 8; ++byte) body->push_back(static_cast<char>(value >> (8 * byte)));
}

// Text: zero-terminated, zero-padded to a whole word.
void PutText(std::string* body, const std::string& text) {
  body->append(text);
  body->append(8 - text.size() % 8, '\0');
}

uint64_t GetUint64(const std::string& body, size_t offset) {
  uint64_t value = 0;
  for (int byte = 7; byte >= 0; --byte) {
    value = value << 8 | static_cast<uint8_t>(body[offset + byte]);
  }
  return value;
}

struct Response {
  uint8_t type = 0;
  std::string body;
};

// One client connection to a node, closed on destruction.
class WireConnection {
 public:
  ~WireConnection() {
    if (fd_ >= 0) close(fd_);
  }

  absl::Status Connect(const std::string& address) {
    size_t colon = address.rfind(':');
    if (colon == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("'", address, "' is not host:port"));
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(address.substr(0, colon).c_str(), address.substr(colon + 1).c_str(), &hints,
                    &found) != 0) {
      return absl::UnavailableError(absl::StrCat("cannot resolve ", address));
    }
    fd_ = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
    timeval timeout{.tv_sec = 10, .tv_usec = 0};
    bool connected = fd_ >= 0 &&
                     setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) == 0 &&
                     connect(fd_, found->ai_addr, found->ai_addrlen) == 0;
    freeaddrinfo(found);
    if (!connected) return absl::UnavailableError(absl::StrCat("cannot connect to ", address));
    std::string handshake;
    PutUint64(&handshake, kProtocolVersion);
    return Send(handshake);
  }

  absl::StatusOr<Response> Request(uint8_t type, const std::string& body) {
    std::string message;
    PutUint64(&message, body.size() / 8 | static_cast<uint64_t>(type) << 32);
    message.append(body);
    if (absl::Status sent = Send(message); !sent.ok()) return sent;
    std::string header;
    if (absl::Status read = Receive(8, &header); !read.ok()) return read;
    Response response;
    response.type = static_cast<uint8_t>(header[4]);
    if (absl::Status read = Receive((GetUint64(header, 0) & 0xffffffff) * 8, &response.body);
        !read.ok()) {
      return read;
    }
    return response;
  }

 private:
  absl::Status Send(const std::string& bytes) {
    for (size_t sent = 0; sent < bytes.size();) {
      ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return absl::UnavailableError("the connection was lost while sending");
      sent += static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

  absl::Status Receive(size_t size, std::string* bytes) {
    bytes->resize(size);
    for (size_t got = 0; got < size;) {
      ssize_t n = recv(fd_, bytes->data() + got, size - got, 0);
      if (n <= 0) return absl::UnavailableError("the connection was lost while receiving");
      got += static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

  int fd_ = -1;
};

// The code of a failure response saying that another node's join is being applied (raft takes
// one configuration change at a time): worth sending again shortly.
constexpr uint64_t kChangeInProgress = 5;

// The failure a response carries, or OK when it is of the expected type. A failure worth another
// try is Unavailable.
absl::Status Expect(const Response& response, uint8_t type, const std::string& request) {
  if (response.type == type) return absl::OkStatus();
  if (response.type == kResponseFailure && response.body.size() >= 8) {
    std::string message = absl::StrCat(request, " failed: ", response.body.c_str() + 8, " (code ",
                                       GetUint64(response.body, 0), ")");
    return GetUint64(response.body, 0) == kChangeInProgress
               ? absl::UnavailableError(message)
               : absl::FailedPreconditionError(message);
  }
  return absl::InternalError(
      absl::StrCat(request, ": unexpected response type ", static_cast<int>(response.type)));
}

// The leader's address as `peer` knows it; Unavailable while it knows none.
absl::StatusOr<std::string> LeaderOf(const std::string& peer) {
  WireConnection connection;
  if (absl::Status connected = connection.Connect(peer); !connected.ok()) return connected;
  std::string body;
  PutUint64(&body, 0);
  absl::StatusOr<Response> response = connection.Request(kRequestLeader, body);
  if (!response.ok()) return response.status();
  if (absl::Status ok = Expect(*response, kResponseNode, "LEADER"); !ok.ok()) return ok;
  std::string leader = response->body.size() > 8 ? response->body.c_str() + 8 : "";
  if (leader.empty()) return absl::UnavailableError(absl::StrCat(peer, " knows no leader yet"));
  return leader;
}

// Sends ADD (unless `*added`, set once it succeeds) then ASSIGN.
absl::Status AddVoter(const std::string& leader, uint64_t id, const std::string& address,
                      bool* added) {
  WireConnection connection;
  if (absl::Status connected = connection.Connect(leader); !connected.ok()) return connected;
  if (!*added) {
    std::string add;
    PutUint64(&add, id);
    PutText(&add, address);
    absl::StatusOr<Response> response = connection.Request(kRequestAdd, add);
    if (!response.ok()) return response.status();
    if (absl::Status ok = Expect(*response, kResponseEmpty, "ADD"); !ok.ok()) return ok;
    *added = true;
  }
  std::string assign;
  PutUint64(&assign, id);
  PutUint64(&assign, kRoleVoter);
  absl::StatusOr<Response> assigned = connection.Request(kRequestAssign, assign);
  if (!assigned.ok()) return assigned.status();
  return Expect(*assigned, kResponseEmpty, "ASSIGN");
}

}  // namespace

absl::Status JoinCluster(const std::vector<std::string>& peers, uint64_t id,
                         const std::string& address, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  absl::Status last = absl::UnavailableError("no peer given");
  bool added = false;
  while (std::chrono::steady_clock::now() < deadline) {
    for (const std::string& peer : peers) {
      absl::StatusOr<std::string> leader = LeaderOf(peer);
      if (!leader.ok()) {
        last = leader.status();
        continue;
      }
      last = AddVoter(*leader, id, address, &added);
      // Only an unreachable or busy leader is worth another try.
      if (!absl::IsUnavailable(last)) return last;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return absl::DeadlineExceededError(
      absl::StrCat("could not join within ", timeout_s, " s: ", last.message()));
}

}  // namespace crawldb::node
