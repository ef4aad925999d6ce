#include "models/sim/broadcast_delays.h"

#include "models/observe/output_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace cubecast {

BroadcastDelays::BroadcastDelays(const std::vector<std::vector<Arrival>>& arrivals, uint32_t nodes)
    : arrivals_(arrivals), progress_(arrivals.size()), nodes_(nodes) {
    for (size_t o = 0; o < arrivals.size(); ++o) progress_[o].assign(arrivals[o].size(), Progress{nodes - 1, 0});
}

void BroadcastDelays::delivered(const Header& h, uint64_t cycle) {
    if (h.origin >= progress_.size() || h.msg >= progress_[h.origin].size()) return;  // the node reports it
    Progress& p = progress_[h.origin][h.msg];
    if (p.missing == 0) return;
    --p.missing;
    p.done_cycle = std::max(p.done_cycle, cycle);  // (the last delivery's, once none is missing)
}

std::vector<uint64_t> BroadcastDelays::words() const {
    std::vector<uint64_t> w;
    for (const auto& messages : progress_)
        for (const Progress& p : messages) w.insert(w.end(), {uint64_t{nodes_ - 1 - p.missing}, p.done_cycle});
    return w;
}

void BroadcastDelays::take_words(const std::vector<uint64_t>& delivered, const std::vector<uint64_t>& latest) {
    size_t i = 0;
    for (auto& messages : progress_)
        for (Progress& p : messages) {
            p.missing = static_cast<uint32_t>(nodes_ - 1 - std::min<uint64_t>(delivered[i], nodes_ - 1));
            p.done_cycle = latest[i + 1];
            i += 2;
        }
}

namespace {
// Student's t, two-sided 95 %, for kBatches - 1 = 9 degrees of freedom.
constexpr double kT95With9 = 2.262;

double percentile(std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
    return sorted[std::min(i, sorted.size() - 1)];
}
}  // namespace

void BroadcastDelays::summarize(unsigned packet_flits, double warmup, double horizon, DynamicResult& out) const {
    const double f = packet_flits, window = horizon - warmup;
    const double nodes = static_cast<double>(arrivals_.size());
    std::vector<double> delays;
    std::vector<double> batch_sum(kBatches, 0), batch_count(kBatches, 0);
    struct Event {
        double t;
        int delta;
    };
    std::vector<Event> events;  // +1 at each arrival, -1 at each completion
    uint64_t completed_in_window = 0, arrived_in_window = 0;
    for (size_t o = 0; o < arrivals_.size(); ++o)
        for (size_t m = 0; m < arrivals_[o].size(); ++m) {
            ++out.requests;
            const double arrival = arrivals_[o][m].slot;
            const Progress& p = progress_[o][m];
            const bool done = p.missing == 0;
            if (!done) ++out.incomplete;
            const double completion = done ? static_cast<double>(p.done_cycle) / f : INFINITY;
            events.push_back({arrival, +1});
            if (done) events.push_back({completion, -1});
            if (done && completion >= warmup && completion < horizon) ++completed_in_window;
            if (arrival < warmup || arrival >= horizon) continue;
            ++arrived_in_window;
            if (!done) continue;
            ++out.measured;
            const double delay = completion - arrival;
            delays.push_back(delay);
            const auto b = std::min<size_t>(kBatches - 1, static_cast<size_t>((arrival - warmup) / window * kBatches));
            batch_sum[b] += delay;
            batch_count[b] += 1;
        }
    out.offered = static_cast<double>(arrived_in_window) / (nodes * window);
    out.throughput = static_cast<double>(completed_in_window) / (nodes * window);
    if (!delays.empty()) {
        double sum = 0;
        for (double x : delays) sum += x;
        out.mean_delay = sum / static_cast<double>(delays.size());
        std::sort(delays.begin(), delays.end());
        out.p50_delay = percentile(delays, 0.50);
        out.p99_delay = percentile(delays, 0.99);
        out.max_delay = delays.back();
        out.batch_means.clear();
        for (unsigned b = 0; b < kBatches; ++b)
            if (batch_count[b] > 0) out.batch_means.push_back(batch_sum[b] / batch_count[b]);
        const double k = static_cast<double>(out.batch_means.size());
        if (k >= 2) {
            double mean = 0, var = 0;
            for (double x : out.batch_means) mean += x / k;
            for (double x : out.batch_means) var += (x - mean) * (x - mean) / (k - 1);
            out.ci_half = (k == kBatches ? kT95With9 : 2.0 + 4.0 / k) * std::sqrt(var / k);
        }
    }
    // The number in the system over time: its time average and maximum in the window, and its
    // averages over the window's first and last quarter (growth between them: unstable).
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return a.t < b.t || (a.t == b.t && a.delta < b.delta); });
    const double q1_end = warmup + window / 4, q4_start = horizon - window / 4;
    double level = 0, last = 0, area = 0, area_q1 = 0, area_q4 = 0;
    uint64_t peak = 0;
    auto add = [&](double from, double to) {  // `level` requests in the system during [from, to)
        auto overlap = [&](double a, double b) { return std::max(0.0, std::min(to, b) - std::max(from, a)); };
        area += level * overlap(warmup, horizon);
        area_q1 += level * overlap(warmup, q1_end);
        area_q4 += level * overlap(q4_start, horizon);
    };
    for (const Event& e : events) {
        add(last, e.t);
        last = e.t;
        level += e.delta;
        if (e.t >= warmup && e.t < horizon) peak = std::max(peak, static_cast<uint64_t>(level));
    }
    add(last, horizon);
    out.mean_backlog = area / window;
    out.max_backlog = peak;
    out.backlog_first_quarter = area_q1 / (window / 4);
    out.backlog_last_quarter = area_q4 / (window / 4);
    // A stable system's backlog fluctuates about its mean; an unstable one's grows linearly through
    // the window. Growth of more than half the first quarter's level plus one request per node
    // (so that near-empty systems are not judged by a handful of requests) counts as unstable.
    out.stable = out.backlog_last_quarter <= 1.5 * out.backlog_first_quarter + nodes;
}

std::string BroadcastDelays::write_csv(const std::string& path, unsigned packet_flits) const {
    std::ofstream os(path);
    if (!os) return write_failure("--delays", path, os);
    os << "origin,msg,arrival_slot,completion_cycle,delay_slots\n" << std::setprecision(10);
    for (size_t o = 0; o < arrivals_.size(); ++o)
        for (size_t m = 0; m < arrivals_[o].size(); ++m) {
            const Progress& p = progress_[o][m];
            os << o << ',' << m << ',' << arrivals_[o][m].slot << ',';
            if (p.missing == 0)
                os << p.done_cycle << ',' << static_cast<double>(p.done_cycle) / packet_flits - arrivals_[o][m].slot;
            else
                os << ',';
            os << '\n';
        }
    return write_failure("--delays", path, os);
}

}  // namespace cubecast
