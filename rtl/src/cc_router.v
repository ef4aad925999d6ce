// The cubecast hypercube router in Verilog: the same pin-level links as routers/router.h (per port
// valid / ready / 64-bit flit in each direction, here as flattened buses), the same blocks and the
// same cycle behaviour, so that it can replace the SystemC router at any node.
//   input units -> control logic (one per input, one for the local port) -> crossbar (places each
//   input's packet in all its output queues or in none, in port order, then each injection queue's
//   copy) -> output units.
// The network interface (as routers/router_core.h's): the local port takes the node's next own
// packet when every copy can go, into its output queue at once (that port's injection queue empty,
// the output with space) or into the port's injection queue (cc_injection_unit.v), whose head enters
// the output queue as space allows; so a copy blocked at one port never holds back another port's.
// Phases: rst clears; load (after rst) lets the node preload its packets through the local port,
// one per edge; then the router runs and `cycle` counts edges from 0.
`include "cc_defs.vh"
module cc_router #(
    parameter integer D_MAX = 8,      // ports built; `dim` (<= D_MAX) of them are used
    parameter integer QDEPTH = 64,    // hardware queue depth
    parameter integer PF_MAX = 4,     // largest packet, in flits
    parameter integer INJ_DEPTH = 128 // copies each port's injection queue holds (a power of two)
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  load,
    // configuration straps
    input  wire [15:0]           node_id,
    input  wire [4:0]            dim,
    input  wire [6:0]            packet_flits,
    input  wire [1:0]            algo,
    input  wire [3:0]            sbt_rot,
    input  wire [15:0]           queue_depth,   // 0 = QDEPTH
    input  wire                  tst_invert_priority,
    // links
    input  wire [D_MAX-1:0]      in_valid,
    input  wire [D_MAX*64-1:0]   in_flit,
    output wire [D_MAX-1:0]      in_ready,
    output wire [D_MAX-1:0]      out_valid,
    output wire [D_MAX*64-1:0]   out_flit,
    input  wire [D_MAX-1:0]      out_ready,
    // local port: injection of the node's own packets, delivery to the node
    input  wire                  inj_valid,
    input  wire [PF_MAX*64-1:0]  inj_flits,
    output reg                   inj_placed,    // the network interface took the packet at this edge
    output reg  [D_MAX-1:0]      dlv_valid,
    // observation (for the simulator's conservation and stall checks, and waves)
    output reg  [31:0]           cycle,
    output reg  [15:0]           dbg_enq_copies,
    output wire [D_MAX-1:0]      dbg_started,
    output wire [D_MAX*16-1:0]   dbg_occupancy,
    output wire [D_MAX-1:0]      dbg_holding,
    output wire [D_MAX*16-1:0]   dbg_injection,  // copies waiting in each port's injection queue
    output wire                  dbg_waiting
);
    localparam integer PW = PF_MAX * 64;
    localparam integer NCTL = D_MAX + 1;   // control logics: one per input port, then the local port
    localparam integer LOCAL = D_MAX;
    localparam integer NSRC = 2 * D_MAX;   // crossbar sources: the inputs, then the injection queues
    wire run = !rst && !load;

    // Input units.
    wire [D_MAX-1:0]       offer;
    wire [D_MAX-1:0]       completing;
    wire [D_MAX*PW-1:0]    in_flits;       // each input's packet
    wire [NCTL*64-1:0]     ctl_hdr;        // the header each control logic routes
    reg  [NSRC-1:0]        placed;
    genvar p, q;
    generate
        for (p = 0; p < D_MAX; p = p + 1) begin : g_in
            cc_input_unit #(.PF_MAX(PF_MAX)) u_in (
                .clk(clk), .rst(rst), .run(run), .packet_flits(packet_flits),
                .in_valid(in_valid[p]), .in_flit(in_flit[p*64 +: 64]), .in_ready(in_ready[p]),
                .placed(placed[p]), .offer(offer[p]), .completing(completing[p]),
                .flits(in_flits[p*PW +: PW]), .holding_now(dbg_holding[p]));
            assign ctl_hdr[p*64 +: 64] = in_flits[p*PW +: 64];
        end
    endgenerate
    assign ctl_hdr[LOCAL*64 +: 64] = inj_flits[63:0];

    // Control logic: one decision per input and one for the local port's packet.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NCTL-1:0]         deliver;  // the local port's packets are never delivered back
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NCTL*D_MAX-1:0]   fwd;
    wire [NCTL*D_MAX*32-1:0] nb, pri;
    wire [NCTL*32-1:0]       mnb_addr;
    wire [NCTL*D_MAX*16-1:0] mnb_row;
    wire [NCTL*D_MAX-1:0]    te_addr;
    wire [NCTL*16-1:0]       te_position;
    cc_rom #(.D_MAX(D_MAX), .NSRC(NCTL)) u_rom (
        .mnb_addr(mnb_addr), .mnb_row(mnb_row), .te_addr(te_addr), .te_position(te_position));
    generate
        for (p = 0; p < NCTL; p = p + 1) begin : g_ctl
            cc_control_logic #(.D_MAX(D_MAX)) u_ctl (
                .node_id(node_id), .dim(dim), .packet_flits(packet_flits), .algo(algo), .sbt_rot(sbt_rot), .radix_bits(3'd0), .torus(1'b0),
                .own(p == LOCAL), .hdr(ctl_hdr[p*64 +: 64]), .deliver(deliver[p]),
                .fwd(fwd[p*D_MAX +: D_MAX]), .not_before(nb[p*D_MAX*32 +: D_MAX*32]),
                .prio(pri[p*D_MAX*32 +: D_MAX*32]),
                .mnb_addr(mnb_addr[p*32 +: 32]), .row(mnb_row[p*D_MAX*16 +: D_MAX*16]),
                .te_addr(te_addr[p*D_MAX +: D_MAX]), .own_position(te_position[p*16 +: 16]));
        end
    endgenerate
    wire [D_MAX-1:0] local_fwd = fwd[LOCAL*D_MAX +: D_MAX];

    // The network interface: one injection queue per output port.
    wire [D_MAX-1:0]       ni_valid;
    wire [D_MAX*PW-1:0]    ni_flits;
    wire [D_MAX*32-1:0]    ni_nb, ni_pri;
    wire [D_MAX*16-1:0]    ni_count;
    reg  [D_MAX-1:0]       ni_push, ni_pop, bypass;
    generate
        for (q = 0; q < D_MAX; q = q + 1) begin : g_ni
            cc_injection_unit #(.DEPTH(INJ_DEPTH), .PF_MAX(PF_MAX)) u_ni (
                .clk(clk), .rst(rst), .push(ni_push[q]), .push_flits(inj_flits),
                .push_not_before(nb[(LOCAL*D_MAX + q)*32 +: 32]), .push_priority(pri[(LOCAL*D_MAX + q)*32 +: 32]),
                .pop(ni_pop[q]), .valid(ni_valid[q]), .head_flits(ni_flits[q*PW +: PW]),
                .head_not_before(ni_nb[q*32 +: 32]), .head_priority(ni_pri[q*32 +: 32]), .count(ni_count[q*16 +: 16]));
        end
    endgenerate
    assign dbg_injection = ni_count;

    // Crossbar allocation. The inputs in port order: a packet is placed only if every queue it goes to
    // has room. Then each port's injection queue head, if its output has room; then the local port
    // takes its packet if every copy can go (its port's injection queue empty at this edge and the output
    // with room: at once, one copy per port per edge; else into the queue if that has room).
    wire [15:0] depth = (queue_depth == 16'd0 || {16'd0, queue_depth} > QDEPTH) ? QDEPTH[15:0] : queue_depth;
    wire [D_MAX*16-1:0] occ;
    reg  [D_MAX*16-1:0] extra;  // copies placed so far in this edge, per output
    reg  [15:0] copies;
    reg         fits, accept;
    reg  [D_MAX-1:0] room;      // per output: one more copy fits in its queue at this edge
    integer s, k;
    always @* begin
        extra = {D_MAX*16{1'b0}};
        copies = 16'd0;
        placed = {NSRC{1'b0}};
        for (s = 0; s < D_MAX; s = s + 1) begin
            fits = offer[s] && run;
            for (k = 0; k < D_MAX; k = k + 1)
                if (fwd[s*D_MAX + k] && occ[k*16 +: 16] + extra[k*16 +: 16] + 16'd1 > depth) fits = 1'b0;
            placed[s] = fits;
            if (fits)
                for (k = 0; k < D_MAX; k = k + 1)
                    if (fwd[s*D_MAX + k]) begin
                        extra[k*16 +: 16] = extra[k*16 +: 16] + 16'd1;
                        copies = copies + 16'd1;
                    end
        end
        for (k = 0; k < D_MAX; k = k + 1) begin
            room[k] = occ[k*16 +: 16] + extra[k*16 +: 16] + 16'd1 <= depth;
            ni_pop[k] = !rst && ni_valid[k] && room[k];
        end
        accept = inj_valid && !rst;
        for (k = 0; k < D_MAX; k = k + 1)
            if (local_fwd[k] && ni_valid[k] && ni_count[k*16 +: 16] - (ni_pop[k] ? 16'd1 : 16'd0) >= INJ_DEPTH[15:0])
                accept = 1'b0;
        for (k = 0; k < D_MAX; k = k + 1) begin
            bypass[k] = accept && local_fwd[k] && !ni_valid[k] && room[k];
            ni_push[k] = accept && local_fwd[k] && !bypass[k];
            placed[D_MAX + k] = ni_pop[k] || bypass[k];
            if (placed[D_MAX + k]) copies = copies + 16'd1;
        end
    end

    // What each crossbar source offers the output units: an input's packet with its keys for every
    // port; an injection queue's copy (its head, or the local packet going straight through) for its
    // own port only.
    wire [NSRC*PW-1:0]       src_flits;
    wire [NSRC*D_MAX-1:0]    src_fwd;
    wire [NSRC*D_MAX*32-1:0] src_nb, src_pri;
    generate
        for (p = 0; p < D_MAX; p = p + 1) begin : g_src_in
            assign src_flits[p*PW +: PW] = in_flits[p*PW +: PW];
            assign src_fwd[p*D_MAX +: D_MAX] = fwd[p*D_MAX +: D_MAX];
            assign src_nb[p*D_MAX*32 +: D_MAX*32] = nb[p*D_MAX*32 +: D_MAX*32];
            assign src_pri[p*D_MAX*32 +: D_MAX*32] = pri[p*D_MAX*32 +: D_MAX*32];
        end
        for (q = 0; q < D_MAX; q = q + 1) begin : g_src_ni
            assign src_flits[(D_MAX + q)*PW +: PW] = ni_valid[q] ? ni_flits[q*PW +: PW] : inj_flits;
            for (p = 0; p < D_MAX; p = p + 1) begin : g_port
                assign src_fwd[(D_MAX + q)*D_MAX + p] = p == q;
                assign src_nb[((D_MAX + q)*D_MAX + p)*32 +: 32] =
                    p != q ? 32'd0 : ni_valid[q] ? ni_nb[q*32 +: 32] : nb[(LOCAL*D_MAX + q)*32 +: 32];
                assign src_pri[((D_MAX + q)*D_MAX + p)*32 +: 32] =
                    p != q ? 32'd0 : ni_valid[q] ? ni_pri[q*32 +: 32] : pri[(LOCAL*D_MAX + q)*32 +: 32];
            end
        end
    endgenerate

    // Output units.
    wire [D_MAX-1:0] waiting;
    generate
        for (q = 0; q < D_MAX; q = q + 1) begin : g_out
            wire [NSRC-1:0]    enq;
            wire [NSRC*32-1:0] enq_nb, enq_pri;
            for (p = 0; p < NSRC; p = p + 1) begin : g_src
                assign enq[p] = placed[p] && src_fwd[p*D_MAX + q];
                assign enq_nb[p*32 +: 32] = src_nb[(p*D_MAX + q)*32 +: 32];
                assign enq_pri[p*32 +: 32] = src_pri[(p*D_MAX + q)*32 +: 32];
            end
            cc_output_unit #(.QDEPTH(QDEPTH), .PF_MAX(PF_MAX), .NSRC(NSRC)) u_out (
                .clk(clk), .rst(rst), .run(run), .cycle(cycle), .packet_flits(packet_flits),
                .tst_invert_priority(tst_invert_priority), .enq(enq), .enq_not_before(enq_nb),
                .enq_priority(enq_pri), .enq_flits(src_flits), .occupancy(occ[q*16 +: 16]),
                .waiting(waiting[q]), .out_ready(out_ready[q]), .out_valid(out_valid[q]),
                .out_flit(out_flit[q*64 +: 64]), .started(dbg_started[q]));
        end
    endgenerate
    assign dbg_occupancy = occ;
    assign dbg_waiting = |waiting;

    always @(posedge clk) begin
        if (rst) begin
            cycle <= 32'd0;
            inj_placed <= 1'b0;
            dlv_valid <= {D_MAX{1'b0}};
            dbg_enq_copies <= 16'd0;
        end else begin
            if (run) cycle <= cycle + 32'd1;
            inj_placed <= accept;
            dlv_valid <= completing & deliver[D_MAX-1:0];
            dbg_enq_copies <= copies;
        end
    end
endmodule
