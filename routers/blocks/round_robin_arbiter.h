// A round-robin arbiter with priorities: among this cycle's requesters the one with the smallest
// priority wins; among equals, the first at or after the pointer. The pointer moves just past a
// winner whose grant was used, so with equal priorities every requester is served within n grants
// (BookSim's round-robin arbiter; the priorities are the control logic's queue keys).
#pragma once
#include <cstdint>

namespace cubecast {

class RoundRobinArbiter {
public:
    explicit RoundRobinArbiter(unsigned n = 1) : n_(n) {}
    void clear() { winner_ = -1; }
    void request(unsigned i, int64_t priority) {
        const unsigned distance = i >= pointer_ ? i - pointer_ : i + n_ - pointer_;  // (i, pointer_ < n_: no division)
        if (winner_ < 0 || priority < priority_ || (priority == priority_ && distance < distance_)) {
            winner_ = static_cast<int>(i);
            priority_ = priority;
            distance_ = distance;
        }
    }
    int winner() const { return winner_; }  // -1: nobody asked
    void granted(unsigned i) { pointer_ = i + 1 == n_ ? 0 : i + 1; }

private:
    unsigned n_;
    unsigned pointer_ = 0;
    int winner_ = -1;
    int64_t priority_ = 0;
    unsigned distance_ = 0;
};

}  // namespace cubecast
