#include "host/babylon/memo.hpp"

namespace piles::babylon {
namespace {

// The result lives in the key's top bit, which encode() never uses.
template <class Key>
Key result_bit() {
  return Key{1} << key_bits<Key>;
}

template <class Key>
Key without_result(const Key& key) {
  return key & ~result_bit<Key>();
}

// A 64-bit finaliser (MurmurHash3's fmix64) over the words of the key.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

std::uint64_t hash_words(Bits x) {
  return mix(static_cast<std::uint64_t>(x) ^
             mix(static_cast<std::uint64_t>(x >> 64) + 0x9e3779b97f4a7c15ULL));
}

std::uint64_t hash_words(const Bits256& x) {
  return hash_words(x.lo) ^ mix(hash_words(x.hi) + 0x9e3779b97f4a7c15ULL);
}

template <class Lock>
class MaybeLocked {
 public:
  MaybeLocked(Lock& lock, bool take) : lock_(take ? &lock : nullptr) {
    if (lock_) lock_->lock();
  }
  ~MaybeLocked() {
    if (lock_) lock_->unlock();
  }
  MaybeLocked(const MaybeLocked&) = delete;
  MaybeLocked& operator=(const MaybeLocked&) = delete;

 private:
  Lock* lock_;
};

}  // namespace

template <class Key>
std::size_t Memo<Key>::Hash::operator()(const Key& key) const {
  return hash_words(without_result(key));
}

template <class Key>
bool Memo<Key>::Equal::operator()(const Key& a, const Key& b) const {
  return without_result(a) == without_result(b);
}

template <class Key>
Memo<Key>::Memo(bool concurrent)
    : concurrent_(concurrent), shards_(std::make_unique<Shard[]>(std::size_t{1} << shard_bits)) {}

template <class Key>
int Memo<Key>::find(const Key& key) const {
  const std::size_t hash = Hash{}(key);
  const Shard& shard = shards_[shard_of(hash)];
  MaybeLocked guard(shard.lock, concurrent_);
  const auto it = shard.set.find(key);
  if (it == shard.set.end()) return -1;
  return static_cast<bool>(*it & result_bit<Key>()) ? 1 : 0;
}

template <class Key>
void Memo<Key>::insert(const Key& key, bool mover_wins) {
  const std::size_t hash = Hash{}(key);
  Shard& shard = shards_[shard_of(hash)];
  MaybeLocked guard(shard.lock, concurrent_);
  shard.set.insert(mover_wins ? key | result_bit<Key>() : key);
}

template <class Key>
std::uint64_t Memo<Key>::size() const {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < (std::size_t{1} << shard_bits); ++s) {
    MaybeLocked guard(shards_[s].lock, concurrent_);
    n += shards_[s].set.size();
  }
  return n;
}

template <class Key>
std::uint64_t Memo<Key>::bytes() const {
  // boost's open-addressing table: one slot per bucket plus one metadata byte per slot
  // (groups of 15 slots share 16 bytes).
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < (std::size_t{1} << shard_bits); ++s) {
    MaybeLocked guard(shards_[s].lock, concurrent_);
    const std::uint64_t slots = shards_[s].set.bucket_count();
    n += slots * sizeof(Key) + (slots + 14) / 15 * 16;
  }
  return n;
}

template class Memo<Bits>;
template class Memo<Bits256>;

}  // namespace piles::babylon
