#pragma once

#include <boost/unordered/unordered_flat_set.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "core/babylon.hpp"

namespace piles::babylon {

// The solved positions: each key is stored once with its result in the key's free top bit,
// so a position costs one key (16 or 32 bytes) plus the table's slack. The table is split
// into shards, each behind its own lock, so threads rarely wait for one another; a
// single-threaded memo takes no locks.
template <class Key>
class Memo {
 public:
  explicit Memo(bool concurrent);

  // 1: the mover wins, 0: the mover loses, -1: not solved yet.
  int find(const Key& key) const;
  void insert(const Key& key, bool mover_wins);

  std::uint64_t size() const;
  // Bytes held by the tables (slots and their metadata).
  std::uint64_t bytes() const;

 private:
  struct Hash {
    using is_avalanching = void;
    std::size_t operator()(const Key& key) const;
  };
  struct Equal {
    bool operator()(const Key& a, const Key& b) const;
  };
  using Set = boost::unordered_flat_set<Key, Hash, Equal>;
  struct alignas(64) Shard {
    mutable std::mutex lock;
    Set set;
  };

  static constexpr int shard_bits = 6;
  static std::size_t shard_of(std::size_t hash) { return (hash >> 8) & ((1u << shard_bits) - 1); }

  bool concurrent_;
  std::unique_ptr<Shard[]> shards_;
};

extern template class Memo<Bits>;
extern template class Memo<Bits256>;

}  // namespace piles::babylon
