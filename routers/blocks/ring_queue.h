// A FIFO in one array, grown by doubling when full (a std::deque allocates and frees a block every
// few dozen entries, and holds 576 bytes even when empty): for queues whose length has a small bound,
// such as a delayed wire's flits (never more than the link delay plus one), for queues that are empty
// in most routers, and for the ideal router's output queues, kept in key order by insertion. Empty
// until the first push: it costs no allocation. It is 24 bytes (the array's pointer and size, the
// head and the count; a std::vector and the two counts took 32): a router holds several a port.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace cubecast {

template <class T>
class RingQueue {
public:
    RingQueue() = default;
    RingQueue(RingQueue&& other) noexcept { *this = std::move(other); }
    RingQueue& operator=(RingQueue&& other) noexcept {  // (the other left empty, as a moved std::vector)
        items_ = std::move(other.items_);
        size_ = std::exchange(other.size_, 0);
        head_ = std::exchange(other.head_, 0);
        count_ = std::exchange(other.count_, 0);
        return *this;
    }
    RingQueue(const RingQueue& other) : head_(0), count_(other.count_) {
        if (other.size_ == 0) return;
        items_.reset(new T[other.size_]);
        size_ = other.size_;
        for (size_t i = 0; i < count_; ++i) items_[i] = other[i];
    }
    RingQueue& operator=(const RingQueue& other) {
        if (this != &other) *this = RingQueue(other);
        return *this;
    }

    bool empty() const { return count_ == 0; }
    size_t size() const { return count_; }
    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }
    T& back() { return items_[(head_ + count_ - 1) & (size_ - 1)]; }
    const T& back() const { return items_[(head_ + count_ - 1) & (size_ - 1)]; }
    const T& operator[](size_t i) const { return items_[(head_ + i) & (size_ - 1)]; }  // i-th from the front
    T& operator[](size_t i) { return items_[(head_ + i) & (size_ - 1)]; }
    size_t capacity() const { return size_; }
    void clear() {  // (an item's own heap, a packet's payload, is freed with it, as pop_front() does)
        if constexpr (!std::is_trivially_destructible_v<T>)
            while (count_ > 0) pop_front();
        head_ = count_ = 0;
    }
    // Inserts the item as the i-th from the front (0..size()), moving the shorter side by one place.
    void insert(size_t i, T item) {
        if (count_ == size_) grow();
        const size_t mask = size_ - 1;
        if (i < count_ - i) {
            head_ = static_cast<uint32_t>((head_ - 1) & mask);
            for (size_t j = 0; j < i; ++j) items_[(head_ + j) & mask] = std::move(items_[(head_ + j + 1) & mask]);
        } else {
            for (size_t j = count_; j > i; --j) items_[(head_ + j) & mask] = std::move(items_[(head_ + j - 1) & mask]);
        }
        items_[(head_ + i) & mask] = std::move(item);
        ++count_;
    }
    void push_back(T item) {  // (copied or moved in by the caller, then moved into its slot)
        if (count_ == size_) grow();
        items_[(head_ + count_) & (size_ - 1)] = std::move(item);
        ++count_;
    }
    void pop_front() {
        // An item that holds heap of its own (a packet's payload words) gives it back now, not when a
        // later item lands in its place: a queue that drained after a burst holds no payloads.
        if constexpr (!std::is_trivially_destructible_v<T>) items_[head_] = T();
        head_ = static_cast<uint32_t>((head_ + 1) & (size_ - 1));
        --count_;
        // Such a queue that drained after a long burst (a control unit's tokens at a prefix's start)
        // gives its array back too; a short one keeps it for the next packets.
        if constexpr (!std::is_trivially_destructible_v<T>)
            if (count_ == 0 && size_ > kKeptWhenEmpty) {
                items_.reset();
                size_ = head_ = 0;
            }
    }

private:
    static constexpr size_t kKeptWhenEmpty = 16;
    // At first, as many items as fit in glibc's smallest chunk (24 bytes: two 8-byte words, four
    // 4-byte ones), or one large item (a packet waiting to be routed, 88 bytes): most queues of a large
    // network at a low load never hold more.
    static constexpr size_t kFirstCapacity = sizeof(T) > 12 ? 1 : sizeof(T) > 6 ? 2 : sizeof(T) > 3 ? 4 : 8;
    void grow() {  // (sizes are powers of two, at most 2^31)
        if (size_ > (uint32_t{1} << 30)) throw std::length_error("a ring queue holds at most 2^31 items");
        const uint32_t bigger_size = std::max<uint32_t>(kFirstCapacity, 2 * size_);
        std::unique_ptr<T[]> bigger(new T[bigger_size]());
        for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(items_[(head_ + i) & (size_ - 1)]);
        items_ = std::move(bigger);
        size_ = bigger_size;
        head_ = 0;
    }
    std::unique_ptr<T[]> items_;
    uint32_t size_ = 0, head_ = 0, count_ = 0;
};

}  // namespace cubecast
