// The control tokens of the phased algorithms of paper 000 (their header tag).
#pragma once
#include <cstdint>

namespace cubecast {

enum TokenTag : uint8_t {
    kTokenPrefixUp = 1,     // §2.2 up the embedded binary tree: a block sum
    kTokenPrefixDown = 2,   // §2.2 down the tree: the sum of everything right of a block
    kTokenTotal = 3,        // §3.2 end of phase 1: node 0 tells e_1..e_d the value of K
    kTokenTermination = 4,  // §3.2 phase 3: a root's tree carries no more packets
    kTokenCount = 5,        // §3.2 guaranteed randomized variant: a root's packet count, to node 0
    kTokenGo = 6,           // ... node 0 to the roots: all K packets arrived, start phase 3
    // Paper 004 (pmnb): prefixes whose down tokens carry (R, L).
    kTokenRankUp = 7,  // §IV-C class computation: ranks in the plain order
    kTokenRankDown = 8,
    // Paper 001 §5 (pe): a row's or a column's active count, to the line's median and back.
    kTokenLineUp = 9,
    kTokenLineDown = 10,
    // Paper 001 §5 (pg): a row's sum told down its columns, a column's along its rows (value: position, sum).
    kTokenLineGossip = 11,
    kTokenClassUp = 16,    // + c: algorithm A_c's prefix (order <_c), c = 0..15
    kTokenClassDown = 32,  // + c
};

}  // namespace cubecast
