// SharedUrlModel: one decoded model per distinct bytes, shared by every caller of a process
// while anyone holds it, the most recent kRetainedUrlModels kept after their last user, corrupt
// bytes refused every time, and callers on two threads at once.
#include "extension/urls/shared_url_models.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "codecs/url_block_model.h"
#include "gtest/gtest.h"

namespace crawldb::urls {
namespace {

using codecs::UrlBlockModel;

// The serialized model trained on keys of host `host`: different hosts, different bytes.
std::vector<uint8_t> ModelBytes(int host) {
  std::vector<std::string> keys;
  for (int i = 0; i < 400; ++i) {
    keys.push_back("com,site" + std::to_string(host) + "(news/" + std::to_string(1000 + i * 7));
  }
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(views);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? model->Serialize() : std::vector<uint8_t>();
}

TEST(SharedUrlModel, SameBytesSameModelDecodedAsLoadDecodesThem) {
  const std::vector<uint8_t> bytes = ModelBytes(1);
  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> first = SharedUrlModel(bytes);
  ASSERT_TRUE(first.ok()) << first.status();
  // A copy of the bytes (another table, another file) finds the same model.
  const std::vector<uint8_t> copy = bytes;
  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> again = SharedUrlModel(copy);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(first->get(), again->get());
  EXPECT_EQ((*first)->Serialize(), bytes);

  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> other = SharedUrlModel(ModelBytes(2));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(first->get(), other->get());
  EXPECT_EQ((*other)->Serialize(), ModelBytes(2));
}

TEST(SharedUrlModel, KeepsTheMostRecentAfterTheirLastUser) {
  std::weak_ptr<const UrlBlockModel> recent;
  {
    absl::StatusOr<std::shared_ptr<const UrlBlockModel>> model = SharedUrlModel(ModelBytes(10));
    ASSERT_TRUE(model.ok()) << model.status();
    recent = *model;
  }
  EXPECT_FALSE(recent.expired()) << "dropped with its last user";
  // kRetainedUrlModels others asked for since: the first is dropped.
  for (size_t i = 0; i < kRetainedUrlModels; ++i) {
    ASSERT_TRUE(SharedUrlModel(ModelBytes(11 + static_cast<int>(i))).ok());
    EXPECT_EQ(recent.expired(), i + 1 == kRetainedUrlModels) << "after " << i + 1 << " others";
  }
}

TEST(SharedUrlModel, AModelInUseIsFoundAfterAnyNumberOfOthers) {
  const std::vector<uint8_t> bytes = ModelBytes(40);
  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> held = SharedUrlModel(bytes);
  ASSERT_TRUE(held.ok()) << held.status();
  for (size_t i = 0; i < 2 * kRetainedUrlModels; ++i) {
    ASSERT_TRUE(SharedUrlModel(ModelBytes(41 + static_cast<int>(i))).ok());
  }
  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> again = SharedUrlModel(bytes);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(held->get(), again->get());
}

TEST(SharedUrlModel, CorruptBytesAreRefusedEveryTime) {
  std::vector<uint8_t> bytes = ModelBytes(20);
  bytes[0] = UrlBlockModel::kVersion + 1;
  for (int attempt = 0; attempt < 2; ++attempt) {
    absl::StatusOr<std::shared_ptr<const UrlBlockModel>> model = SharedUrlModel(bytes);
    ASSERT_FALSE(model.ok());
    EXPECT_EQ(model.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(model.status().message().find("unknown version"), absl::string_view::npos)
        << model.status();
  }
}

TEST(SharedUrlModel, TwoThreadsAtOnceGetOneWorkingModel) {
  const std::vector<uint8_t> bytes = ModelBytes(30);
  std::shared_ptr<const UrlBlockModel> seen[2];
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        absl::StatusOr<std::shared_ptr<const UrlBlockModel>> model =
            SharedUrlModel(i % 2 ? bytes : ModelBytes(31 + t));
        ASSERT_TRUE(model.ok()) << model.status();
        if (i % 2) seen[t] = *model;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_NE(seen[0], nullptr);
  EXPECT_EQ(seen[0], seen[1]);
  EXPECT_EQ(seen[0]->Serialize(), bytes);
}

}  // namespace
}  // namespace crawldb::urls
