// The network's link signals, kept as one primitive channel per signal kind (valid, ready, flit)
// that holds every link's value in a dense array, plus one light interface object per link signal
// for the routers' ports to bind to. A 12-cube has 49,152 links: as sc_signal objects (about 200
// bytes each, one sc_object each) every cycle's reads, writes and updates touched one cache line per
// signal, and elaboration registered 147,456 named objects. Here a write stores the next value and
// notes the link; the bus's single update() copies the changed values. Semantics are sc_signal's
// with one writer: a write takes effect in the update phase, value_changed_event() (and for bool
// posedge/negedge) fire one delta later, event() is true in the delta of a change.
// Three extras serve the idle hardware (routers and monitor that skip cycles with nothing to do):
//   - a wake line per entry: a sleeping router arms its line, and the entry's rising value (a flit's
//     valid coming up on one of its input links) fires the line's event, like a clock enable;
//   - a bitmap of the entries whose value is true, so the link monitor visits only the links that
//     carry a flit instead of all of them (a 16-cube has 1,048,576);
//   - a mirror bit per entry in its reader's own word, so a router sees which of its input links
//     carry a flit without reading each link's entry (on a large network each a cache miss).
#pragma once
#include <map>
#include <memory>
#include <systemc>
#include <vector>

namespace cubecast {

// A clock-enable input: when a watched signal rises while `armed`, `event` fires (one delta later),
// or, for a router clocked by a hub, its bit in `enable_word` is set.
struct WakeLine {
    sc_core::sc_event event;
    bool armed = false;
    uint64_t* enable_word = nullptr;
    uint64_t enable_bit = 0;
};

template <class T>
class SignalBus : public sc_core::sc_prim_channel {
public:
    struct Events {
        sc_core::sc_event changed, posedge, negedge;
    };

    SignalBus(const char* name, size_t n) : sc_prim_channel(name), cur_(std::make_unique<T[]>(n)), side_(n) {}

    const T& read(size_t i) const { return cur_[i]; }
    void write(size_t i, const T& v) {
        Side& e = side_[i];
        e.next = v;
        if (e.dirty) return;
        if (v == cur_[i]) return;  // nothing to change (an earlier write this delta would be dirty)
        e.dirty = 1;
        dirty_.push_back(i);
        if (dirty_.size() == 1) request_update();
    }
    bool event(size_t i) const { return simcontext()->event_occurred(side_[i].stamp); }
    // Entry i's rising value fires `line` when it is armed.
    void set_wake(size_t i, WakeLine* line) { side_[i].wake = line; }
    // Entry i's value kept as bit `bit` of `*word` too (set while it is true): a reader that would
    // read many scattered entries each cycle (a router's input valids) reads one word of its own.
    void mirror(size_t i, uint32_t* word, uint32_t bit) {
        side_[i].mirror = word;
        side_[i].mirror_bit = bit;
        if (static_cast<bool>(cur_[i])) *word |= bit;
    }
    // Keep a bitmap of the entries whose value is true (from now on; all values are false at start).
    void keep_true_bitmap() { true_bits_.assign((side_.size() + 63) / 64, 0); }
    const std::vector<uint64_t>& true_bits() const { return true_bits_; }
    Events& events(size_t i) {  // created on first request (a process made sensitive to the signal)
        auto& e = events_[i];
        if (!e) e = std::make_unique<Events>();
        side_[i].watched = 1;
        return *e;
    }

protected:
    void update() override {
        for (size_t i : dirty_) {
            Side& side = side_[i];
            side.dirty = 0;
            if (side.next == cur_[i]) continue;
            cur_[i] = side.next;
            side.stamp = simcontext()->change_stamp();
            const bool high = static_cast<bool>(cur_[i]);
            if (!true_bits_.empty()) {
                if (high)
                    true_bits_[i / 64] |= uint64_t{1} << (i % 64);
                else
                    true_bits_[i / 64] &= ~(uint64_t{1} << (i % 64));
            }
            if (side.mirror) {
                if (high)
                    *side.mirror |= side.mirror_bit;
                else
                    *side.mirror &= ~side.mirror_bit;
            }
            if (high && side.wake && side.wake->armed) {
                WakeLine& line = *side.wake;
                line.armed = false;
                if (line.enable_word)
                    *line.enable_word |= line.enable_bit;
                else
                    line.event.notify(sc_core::SC_ZERO_TIME);
            }
            if (!side.watched) continue;
            Events& e = *events_[i];
            e.changed.notify(sc_core::SC_ZERO_TIME);
            if (high)
                e.posedge.notify(sc_core::SC_ZERO_TIME);
            else
                e.negedge.notify(sc_core::SC_ZERO_TIME);
        }
        dirty_.clear();
    }

private:
    // The values every reader reads, dense; beside them, per entry, what only a write and the update
    // touch, together (one cache line or two per changed entry, not one per field).
    std::unique_ptr<T[]> cur_;
    struct Side {
        T next{};
        uint8_t dirty = 0, watched = 0;
        uint32_t mirror_bit = 0;
        WakeLine* wake = nullptr;
        uint32_t* mirror = nullptr;
        sc_dt::uint64 stamp = ~sc_dt::uint64{0};
    };
    std::vector<Side> side_;
    std::vector<size_t> dirty_;
    std::map<size_t, std::unique_ptr<Events>> events_;
    std::vector<uint64_t> true_bits_;  // empty unless kept
};

// One link signal as its ports see it: an sc_signal_inout_if onto entry `index` of a bus.
template <class T>
class BusSignal : public sc_core::sc_signal_inout_if<T> {
public:
    BusSignal(SignalBus<T>& bus, size_t index) : bus_(&bus), index_(index) {}

    const T& read() const override { return bus_->read(index_); }
    const T& get_data_ref() const override { return bus_->read(index_); }
    void write(const T& v) override { bus_->write(index_, v); }
    bool event() const override { return bus_->event(index_); }
    const sc_core::sc_event& value_changed_event() const override { return bus_->events(index_).changed; }
    const sc_core::sc_event& default_event() const override { return value_changed_event(); }
    // What sc_signal_in_if<bool> asks for in addition (plain functions for other T, so not marked
    // override: clang's warning about that is off here).
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winconsistent-missing-override"
#endif
    const sc_core::sc_event& posedge_event() const { return bus_->events(index_).posedge; }
    const sc_core::sc_event& negedge_event() const { return bus_->events(index_).negedge; }
    bool posedge() const { return event() && static_cast<bool>(read()); }
    bool negedge() const { return event() && !static_cast<bool>(read()); }
#ifdef __clang__
#pragma clang diagnostic pop
#endif
    // For a writer that drives the bus directly (no virtual call through its port each cycle).
    SignalBus<T>& bus() const { return *bus_; }
    size_t index() const { return index_; }

private:
    SignalBus<T>* bus_;
    size_t index_;
};

}  // namespace cubecast
