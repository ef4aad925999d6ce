// Header flit layout (the same as models/packet.h):
//   [15:0] origin  [31:16] dest  [32] broadcast  [44:33] msg  [48:45] part  [49] kind (1 = ctrl)
//   [57:50] tag  [63:58] check
`define CC_ORIGIN(h) h[15:0]
`define CC_DEST(h)   h[31:16]
`define CC_KIND(h)   h[49]
// Control-logic selector (config pin `algo`).
`define CC_ALGO_SBT 2'd0
`define CC_ALGO_MNB 2'd1
`define CC_ALGO_TE  2'd2
`define CC_ALGO_ECUBE 2'd3  // synthetic traffic's e-cube routing (input-buffered router)
