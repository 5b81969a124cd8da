// An int64 -> int64 hash map with open addressing (linear probing, backward-shift deletion) for the replay kernel.
// std::unordered_map allocates a node per insert and chases a pointer per lookup; the replay does several lookups
// per trace event, so a flat table that stays in cache is what keeps a million events under a tenth of a second.
#pragma once
#include <cstdint>
#include <vector>

class FlatMap {
  public:
    static constexpr int64_t EMPTY = INT64_MIN;  // no key is INT64_MIN: keys are addresses and sizes

    FlatMap() { reset(1 << 16); }

    size_t size() const { return count_; }
    size_t capacity() const { return keys_.size(); }
    bool slot_used(size_t i) const { return keys_[i] != EMPTY; }
    int64_t slot_key(size_t i) const { return keys_[i]; }
    int64_t slot_value(size_t i) const { return values_[i]; }

    // pointer to the value of `key`, or nullptr
    int64_t* find(int64_t key) {
        size_t i = home(key);
        while (keys_[i] != EMPTY) {
            if (keys_[i] == key) return &values_[i];
            i = (i + 1) & mask_;
        }
        return nullptr;
    }

    bool contains(int64_t key) { return find(key) != nullptr; }

    int64_t get(int64_t key, int64_t fallback) {
        int64_t* v = find(key);
        return v ? *v : fallback;
    }

    // the value of `key`, inserted as `initial` when absent
    int64_t& at(int64_t key, int64_t initial) {
        if ((count_ + 1) * 4 > keys_.size() * 3) grow();
        size_t i = home(key);
        while (keys_[i] != EMPTY) {
            if (keys_[i] == key) return values_[i];
            i = (i + 1) & mask_;
        }
        keys_[i] = key;
        values_[i] = initial;
        ++count_;
        return values_[i];
    }

    void set(int64_t key, int64_t value) { at(key, value) = value; }

    bool erase(int64_t key) {
        size_t i = home(key);
        while (keys_[i] != key) {
            if (keys_[i] == EMPTY) return false;
            i = (i + 1) & mask_;
        }
        // shift back the entries of the probe run that follows, so lookups never meet a hole in their run
        size_t j = i;
        while (true) {
            j = (j + 1) & mask_;
            if (keys_[j] == EMPTY) break;
            size_t h = home(keys_[j]);
            bool between = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
            if (!between) {
                keys_[i] = keys_[j];
                values_[i] = values_[j];
                i = j;
            }
        }
        keys_[i] = EMPTY;
        --count_;
        return true;
    }

  private:
    std::vector<int64_t> keys_, values_;
    size_t mask_ = 0, count_ = 0;

    size_t home(int64_t key) const {
        uint64_t x = static_cast<uint64_t>(key);  // addresses share low zero bits: mix before masking
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        return static_cast<size_t>(x) & mask_;
    }

    void reset(size_t capacity) {
        keys_.assign(capacity, EMPTY);
        values_.assign(capacity, 0);
        mask_ = capacity - 1;
        count_ = 0;
    }

    void grow() {
        std::vector<int64_t> old_keys, old_values;
        old_keys.swap(keys_);
        old_values.swap(values_);
        reset(old_keys.size() * 2);
        for (size_t i = 0; i < old_keys.size(); ++i)
            if (old_keys[i] != EMPTY) at(old_keys[i], old_values[i]);
    }
};
