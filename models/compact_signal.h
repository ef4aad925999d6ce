// A signal channel whose current value lives in storage the caller provides. The network keeps the
// values of all its links in three dense arrays (valid, ready, flit), so the routers, which sample
// every input and output pin every cycle, read a few hundred kilobytes instead of one cache line per
// sc_signal object (an sc_signal is about 200 bytes, and a 12-cube has 49,152 links). It behaves as
// sc_signal<T> with one writer: write() takes effect in the update phase, value_changed_event()
// (and for bool posedge/negedge) fire one delta later, event() is true in the delta of a change.
#pragma once
#include <memory>
#include <systemc>

namespace cubecast {

template <class T>
class CompactSignal : public sc_core::sc_prim_channel, public sc_core::sc_signal_inout_if<T> {
public:
    // `storage` must outlive the channel; it is initialised to T().
    CompactSignal(const char* name, T* storage) : sc_prim_channel(name), cur_(storage) { *cur_ = T(); }

    const T& read() const override { return *cur_; }
    const T& get_data_ref() const override { return *cur_; }
    bool event() const override { return simcontext()->event_occurred(change_stamp_); }
    void write(const T& value) override {
        next_ = value;
        if (!(next_ == *cur_)) request_update();
    }
    const char* kind() const override { return "cubecast_compact_signal"; }
    const sc_core::sc_event& value_changed_event() const override { return lazy(changed_); }
    const sc_core::sc_event& default_event() const override { return value_changed_event(); }

    // The extra members sc_signal_in_if<bool> asks for (plain functions for other T).
    const sc_core::sc_event& posedge_event() const { return lazy(posedge_); }
    const sc_core::sc_event& negedge_event() const { return lazy(negedge_); }
    bool posedge() const { return event() && static_cast<bool>(*cur_); }
    bool negedge() const { return event() && !static_cast<bool>(*cur_); }

protected:
    void update() override {
        if (next_ == *cur_) return;
        *cur_ = next_;
        change_stamp_ = simcontext()->change_stamp();
        if (changed_) changed_->notify(sc_core::SC_ZERO_TIME);
        if (posedge_ && static_cast<bool>(*cur_)) posedge_->notify(sc_core::SC_ZERO_TIME);
        if (negedge_ && !static_cast<bool>(*cur_)) negedge_->notify(sc_core::SC_ZERO_TIME);
    }

private:
    static const sc_core::sc_event& lazy(std::unique_ptr<sc_core::sc_event>& e) {
        if (!e) e = std::make_unique<sc_core::sc_event>();
        return *e;
    }
    T* cur_;
    T next_ = T();
    sc_dt::uint64 change_stamp_ = ~sc_dt::uint64{0};
    mutable std::unique_ptr<sc_core::sc_event> changed_, posedge_, negedge_;
};

}  // namespace cubecast
