// The cubecast hypercube router in Verilog: the same pin-level links as routers/router.h (per port
// valid / ready / 64-bit flit in each direction, here as flattened buses), the same blocks and the
// same cycle behaviour, so that it can replace the SystemC router at any node.
//   input units -> control logic (one per source) -> crossbar (places each source's packet in all its
//   output queues or in none, inputs in port order, then the local port) -> output units.
// Phases: rst clears; load (after rst) lets the node preload its packets through the local port,
// one per edge; then the router runs and `cycle` counts edges from 0.
`include "cc_defs.vh"
module cc_router #(
    parameter integer D_MAX = 8,    // ports built; `dim` (<= D_MAX) of them are used
    parameter integer QDEPTH = 64,  // hardware queue depth
    parameter integer PF_MAX = 4    // largest packet, in flits
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
    output reg                   inj_placed,
    output reg  [D_MAX-1:0]      dlv_valid,
    // observation (for the simulator's conservation and stall checks, and waves)
    output reg  [31:0]           cycle,
    output reg  [15:0]           dbg_enq_copies,
    output wire [D_MAX-1:0]      dbg_started,
    output wire [D_MAX*16-1:0]   dbg_occupancy,
    output wire [D_MAX-1:0]      dbg_holding,
    output wire                  dbg_waiting
);
    localparam integer NSRC = D_MAX + 1;  // input ports, then the local port
    wire run = !rst && !load;

    // Sources: input units and the local port.
    wire [NSRC-1:0]           offer;
    wire [D_MAX-1:0]          completing;
    wire [NSRC*PF_MAX*64-1:0] src_flits;
    reg  [NSRC-1:0]           placed;
    genvar p, q;
    generate
        for (p = 0; p < D_MAX; p = p + 1) begin : g_in
            cc_input_unit #(.PF_MAX(PF_MAX)) u_in (
                .clk(clk), .rst(rst), .run(run), .packet_flits(packet_flits),
                .in_valid(in_valid[p]), .in_flit(in_flit[p*64 +: 64]), .in_ready(in_ready[p]),
                .placed(placed[p]), .offer(offer[p]), .completing(completing[p]),
                .flits(src_flits[p*PF_MAX*64 +: PF_MAX*64]), .holding_now(dbg_holding[p]));
        end
    endgenerate
    assign offer[D_MAX] = inj_valid && !rst;
    assign src_flits[D_MAX*PF_MAX*64 +: PF_MAX*64] = inj_flits;

    // Control logic: one decision per source.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NSRC-1:0]         deliver;  // the local port's packets are never delivered back
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NSRC*D_MAX-1:0]   fwd;
    wire [NSRC*D_MAX*32-1:0] nb, pri;
    wire [NSRC*32-1:0]       mnb_addr;
    wire [NSRC*D_MAX*16-1:0] mnb_row;
    wire [NSRC*D_MAX-1:0]    te_addr;
    wire [NSRC*16-1:0]       te_position;
    cc_rom #(.D_MAX(D_MAX), .NSRC(NSRC)) u_rom (
        .mnb_addr(mnb_addr), .mnb_row(mnb_row), .te_addr(te_addr), .te_position(te_position));
    generate
        for (p = 0; p < NSRC; p = p + 1) begin : g_ctl
            cc_control_logic #(.D_MAX(D_MAX)) u_ctl (
                .node_id(node_id), .dim(dim), .packet_flits(packet_flits), .algo(algo), .sbt_rot(sbt_rot),
                .own(p == D_MAX), .hdr(src_flits[p*PF_MAX*64 +: 64]), .deliver(deliver[p]),
                .fwd(fwd[p*D_MAX +: D_MAX]), .not_before(nb[p*D_MAX*32 +: D_MAX*32]),
                .prio(pri[p*D_MAX*32 +: D_MAX*32]),
                .mnb_addr(mnb_addr[p*32 +: 32]), .row(mnb_row[p*D_MAX*16 +: D_MAX*16]),
                .te_addr(te_addr[p*D_MAX +: D_MAX]), .own_position(te_position[p*16 +: 16]));
        end
    endgenerate

    // Crossbar allocation, in source order: a packet is placed only if every queue it goes to has room.
    wire [15:0] depth = (queue_depth == 16'd0 || {16'd0, queue_depth} > QDEPTH) ? QDEPTH[15:0] : queue_depth;
    wire [D_MAX*16-1:0] occ;
    reg  [D_MAX*16-1:0] extra;  // copies placed so far in this edge, per output
    reg  [15:0] copies;
    reg         fits;
    integer s, k;
    always @* begin
        extra = {D_MAX*16{1'b0}};
        copies = 16'd0;
        placed = {NSRC{1'b0}};
        for (s = 0; s < NSRC; s = s + 1) begin
            fits = offer[s] && (run || s == D_MAX);
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
    end

    // Output units.
    wire [D_MAX-1:0] waiting;
    generate
        for (q = 0; q < D_MAX; q = q + 1) begin : g_out
            wire [NSRC-1:0]    enq;
            wire [NSRC*32-1:0] enq_nb, enq_pri;
            for (p = 0; p < NSRC; p = p + 1) begin : g_src
                assign enq[p] = placed[p] && fwd[p*D_MAX + q];
                assign enq_nb[p*32 +: 32] = nb[(p*D_MAX + q)*32 +: 32];
                assign enq_pri[p*32 +: 32] = pri[(p*D_MAX + q)*32 +: 32];
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
            inj_placed <= placed[D_MAX];
            dlv_valid <= completing & deliver[D_MAX-1:0];
            dbg_enq_copies <= copies;
        end
    end
endmodule
