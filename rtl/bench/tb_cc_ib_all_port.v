// Directed self-checking bench for cc_ib_router's all-port network interface under Icarus (and any
// Verilog-2005 simulator): a 2-cube input-buffered router at node 0 with the SBT control logic,
// forwarding through the node, 2 VCs of 4 flits, 1-flit packets of 64 bits, wormhole, no delays.
//   1. Load: the node's own broadcast, offered on src_*, is split by the interface's control logic
//      into a copy for each link (split_links 11), not before cycle 0.
//   2. Its copies, offered on both links' queues (lnk_*), leave at the first edge, both at once (the
//      one-port interface sends them one after the other), and both queue fronts are taken.
//   3. A packet from origin 1 arrives on port 0 (x = 1: the node delivers it and forwards it on port
//      1) while link 1's queue offers a copy not due before cycle 1000: the forwarded copy, first in key
//      order, goes straight into link 1's injection input (thru_links 00) and leaves on port 1 at that
//      same edge (routed, allocated and switched as it enters); the queued one is not taken. With -DTB_QUEUE_FIRST=1 (the planted bug: the queue's front before
//      the copies forwarded at the edge) the bench must fail.
// With -DTB_STRAP_REGS=1 the router is built as the simulator builds it, its straps registered at reset.
`timescale 1ns/1ps
module tb_cc_ib_all_port;
`ifndef TB_QUEUE_FIRST
`define TB_QUEUE_FIRST 0
`endif
`ifndef TB_STRAP_REGS
`define TB_STRAP_REGS 0
`endif
    localparam integer P = 2, V = 2, FW = 64, PF = 1, VW = 1, CWORD = V * 8;
    reg clk = 0, rst = 1, load = 0;
    reg  [P-1:0]    in_valid = 0;
    reg  [P*VW-1:0] in_vc = 0;
    reg  [P*FW-1:0] in_flit = 0;
    wire [P*CWORD-1:0] in_credit;
    reg  [P*CWORD-1:0] credit_back = 0;
    wire [P-1:0]    out_valid;
    wire [P*VW-1:0] out_vc;
    wire [P*FW-1:0] out_flit;
    reg             src_valid = 0;
    reg  [PF*FW-1:0] src_flits = 0;
    wire            src_taken, dlv_valid, mem_taken;
    wire [FW-1:0]   dlv_flit;
    wire [7:0]      dlv_source;
    wire [31:0]     cycle;
    wire [P-1:0]    thru_valid, thru_deliver, thru_keep;
    wire [P*PF*FW-1:0] thru_flits;
    reg  [P-1:0]    lnk_valid = 0, lnk_transit = 0;
    reg  [P*PF*FW-1:0] lnk_flits = 0;
    reg  [P*32-1:0] lnk_nb = 0, lnk_pr = 0;
    wire [P-1:0]    lnk_taken;
    wire [P*P-1:0]  thru_links;
    wire [P*P*64-1:0] thru_keys;
    wire            split_valid;
    wire [P-1:0]    split_links;
    wire [P*64-1:0] split_keys;

    cc_ib_router #(.PORTS(P), .VCS(V), .DEPTH(4), .PF_MAX(PF), .FLIT_W(FW), .CD_MAX(2), .ITERS(1), .STRAP_REGS(`TB_STRAP_REGS)) dut (
        .clk(clk), .rst(rst), .load(load), .node_id(16'd0), .dim(5'd2), .packet_flits(7'd1), .algo(2'd0),
        .sbt_rot(4'd0), .radix_bits(3'd0), .torus(1'b0), .datelines(2'd0), .vcs(5'd2), .route_classes(5'd1), .msg_classes(1'b0), .tst_class_mix(1'b0),
        .tst_no_turn(1'b0), .vc_depth(8'd4), .switching(2'd2), .router_delay(8'd0), .credit_delay(4'd0),
        .link_delay(4'd0), .link_period(4'd1), .injection_delay(8'd0), .ejection_delay(4'd0), .ejection_vcs(5'd0),
        .alloc_iters(4'd1), .replication(1'b0), .fan_out(1'b0), .tst_fan_stale(1'b0), .tst_freeze_pointers(1'b0),
        .tst_free_early(1'b0), .tst_short_credit(1'b0), .tst_own_first(1'b0), .through_node(1'b1), .all_port(1'b1),
        .tst_queue_first(`TB_QUEUE_FIRST != 0), .lnk_valid(lnk_valid), .lnk_flits(lnk_flits), .lnk_transit(lnk_transit), .lnk_after({P{1'b0}}),
        .lnk_nb(lnk_nb), .lnk_pr(lnk_pr), .lnk_taken(lnk_taken), .thru_links(thru_links), .thru_keys(thru_keys),
        .split_valid(split_valid), .split_links(split_links), .split_keys(split_keys), .thru_valid(thru_valid),
        .thru_deliver(thru_deliver), .thru_keep(thru_keep), .thru_flits(thru_flits), .mem_valid(1'b0),
        .mem_flits({(PF*FW){1'b0}}), .mem_taken(mem_taken), .in_valid(in_valid), .in_vc(in_vc), .in_flit(in_flit),
        .in_credit(in_credit), .out_valid(out_valid), .out_vc(out_vc), .out_flit(out_flit), .out_credit(credit_back),
        .src_valid(src_valid), .src_flits(src_flits), .src_made(32'd0), .src_taken(src_taken), .dlv_valid(dlv_valid),
        .dlv_flit(dlv_flit), .dlv_source(dlv_source), .cycle(cycle), .dbg_occupancy(), .dbg_vc_flits(), .dbg_vc_peaks(),
        .dbg_credits(), .dbg_ni_push(), .dbg_vc_state(), .dbg_owned(), .dbg_waiting());

    always #5 clk = !clk;
    // The downstream routers free each flit at once: its credit comes back in its VC's field at the next edge.
    integer q;
    always @(negedge clk) begin
        credit_back = {P*CWORD{1'b0}};
        for (q = 0; q < P; q = q + 1)
            if (out_valid[q]) credit_back[q*CWORD + out_vc[q*VW +: VW]*8] = 1'b1;
    end
    // header: origin [15:0], dest [31:16], broadcast [32]
    localparam [63:0] OWN = 64'h0000_0001_0000_0000, FROM1 = 64'h0000_0001_0000_0001, LATE = 64'h0000_0001_0000_0003;
    integer errors = 0;
    task check(input ok, input [8*64-1:0] what);
        if (!ok) begin
            $display("FAIL cycle %0d: %0s", cycle, what);
            errors = errors + 1;
        end
    endtask

    initial begin
        @(negedge clk) rst = 0;
        load = 1;  // 1. the own broadcast, split during load
        src_valid = 1;
        src_flits = OWN;
        @(negedge clk);
        check(split_valid && src_taken, "the own packet not split during load");
        check(split_links == 2'b11, "its copies not for both links");
        check(split_keys[31:0] == 32'd0 && split_keys[64 +: 32] == 32'd0, "a copy not due at cycle 0");
        load = 0;
        src_valid = 0;
        lnk_valid = 2'b11;  // 2. both copies offered
        lnk_flits = {OWN, OWN};
        @(negedge clk);  // edge 0
        check(lnk_taken == 2'b11, "the links' copies not both taken at the first edge");
        check(out_valid == 2'b11 && out_flit[0 +: FW] == OWN && out_flit[FW +: FW] == OWN,
              "the own copies not on both links at the first edge");
        lnk_valid = 2'b10;  // 3. link 1's queue: a copy not before cycle 1000; a packet arrives on port 0
        lnk_flits = {LATE, 64'd0};
        lnk_transit = 2'b10;
        lnk_nb = {32'd1000, 32'd0};
        in_valid = 2'b01;
        in_vc = 2'b00;
        in_flit = {64'd0, FROM1};
        @(negedge clk);  // edge 1: it arrives, leaves its VC whole for the node and goes on
        in_valid = 0;
        check(thru_valid == 2'b01 && thru_deliver == 2'b01, "the arriving packet not through the node, delivered");
        check(thru_links == 4'b0000, "its copy for link 1 not straight in (first in key order)");
        check(lnk_taken == 2'b00, "the copy not yet due taken");
        check(out_valid == 2'b10 && out_flit[FW +: FW] == FROM1, "the forwarded copy not on port 1 at that edge");
        repeat (4) @(negedge clk);
        check(out_valid == 2'b00, "a link busy after the forwarded copy");
        if (errors == 0) $display("PASS tb_cc_ib_all_port");
        $finish;
    end
endmodule
