// The port models' check against their definitions (paper 003's MLA and SLA, paper 002 §2's shouting):
// what a node may do in one cycle, case by case.
#include <gtest/gtest.h>

#include "routers/logic/port_model.h"

using namespace cubecast;

namespace {
bool allowed(PortModel m, unsigned sending, bool one_message, unsigned receiving) {
    return PortModelCheck(m).check(sending, one_message, receiving).empty();
}
}  // namespace

TEST(PortModelCheck, NamesRoundTrip) {
    for (const PortModel m : {PortModel::mla, PortModel::sla, PortModel::shout})
        EXPECT_EQ(parse_port_model(port_model_name(m)), m);
    EXPECT_FALSE(parse_port_model("MLA").has_value());
    EXPECT_FALSE(parse_port_model("").has_value());
}

// All ports, both directions at once.
TEST(PortModelCheck, MlaAllowsEverything) {
    for (unsigned s = 0; s <= 8; ++s)
        for (unsigned r = 0; r <= 8; ++r) EXPECT_TRUE(allowed(PortModel::mla, s, s <= 1, r));
}

// One send and one receive per cycle, together allowed.
TEST(PortModelCheck, SlaOneSendOneReceive) {
    for (unsigned s = 0; s <= 3; ++s)
        for (unsigned r = 0; r <= 3; ++r)
            for (const bool one : {false, true}) EXPECT_EQ(allowed(PortModel::sla, s, one, r), s <= 1 && r <= 1) << s << " " << r;
}

// One message to any set of neighbours, or one received, never both in a cycle.
TEST(PortModelCheck, ShoutOneMessageOutOrOneIn) {
    for (unsigned s = 0; s <= 3; ++s)
        for (unsigned r = 0; r <= 3; ++r)
            for (const bool one : {false, true}) {
                const bool expected = (s <= 1 || one) && r <= 1 && !(s > 0 && r > 0);
                EXPECT_EQ(allowed(PortModel::shout, s, one, r), expected) << s << " " << one << " " << r;
            }
    EXPECT_NE(PortModelCheck(PortModel::shout).check(1, true, 1).find("same cycle"), std::string::npos);
}
