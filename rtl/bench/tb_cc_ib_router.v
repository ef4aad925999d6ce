// Directed self-checking bench for cc_ib_router under Icarus (and any Verilog-2005 simulator): a
// 2-cube input-buffered router at node 0 with the SBT control logic, 2 VCs of 4 flits, packets of a
// header and one payload flit, wormhole, no delays. Flits of 64 bits, or of 32 with -DTB_FLIT_W=32
// (a header is then two flits, low half first, and a packet three: every packet's head leaves a flit
// time later, once its header's second flit is in).
//   1. its own broadcast (x = 0: both dimensions) enters the injection VC at the first edge and its
//      copies leave one after the other: port 0 on VC 0 (64-bit flits: at edges 0-1), then port 1 on
//      VC 1 (edges 2-3; the copy's VC allocator pointer moved past VC 0);
//   2. a packet from origin 1 arriving on port 0, VC 1 (x = 1: forward on port 1, deliver) leaves on
//      port 1 and reaches the node, and its buffer slots come back as credits of VC 1 on port 0.
// With -DTB_CLASSES=2 the router has two route classes (VC 0 the first, VC 1 the second): the node's own
// copies start in class 0, so both leave on VC 0 (with more VCs, class 0's VC 0 and VC 1); the forwarded
// packet arrived in class 1 and goes on up the port order (port 0 to port 1: no turn), so it stays in
// class 1 and leaves on the VC it came in on (VC 1, the first of class 1).
// With -DTB_REPLICATION=1 the copies replicate per branch: nothing blocks either copy here, so the
// first in key order (port 0) still sends first and every expectation above holds; with
// -DTB_PER_BRANCH=0 the router is built serial only (one copy state a VC) and runs them serially.
// With -DTB_FAN_OUT=1 as well the crossbar multicasts (fan-out): the second copy gets its VC a cycle
// after the first, so it never waits for the flit the first sends, and the expectations hold again.
// With -DTB_VCS=V the router has V VCs (2 unless given; up to 16), and the forwarded packet arrives on
// VC V/2 (with two classes, the first VC of the second class). From 9 VCs the credit word's fields are 4
// bits (the SystemC link's), so its credits are read from field V/2 of that width.
// With -DTB_THROUGH_NODE=1 the router forwards through the node: the packet from origin 1 leaves its VC
// whole at the edge its tail arrives (thru_*: delivered by the node, all its credits in one word),
// goes straight into the injection VC (the node's memory is empty) and leaves on port 1 from there;
// then the node's memory offers it again (mem_*), and it is taken and forwarded once more, not delivered.
// With -DTB_MSG_CLASSES=1 (and -DTB_VCS=4) the router keeps two message classes: data on VCs 0 and 1,
// control tokens on VCs 2 and 3. The node's own broadcast is then a token (its header alone): it
// enters an injection VC of the token class and its copies leave on VC 2 (port 0), then VC 3 (port 1);
// the packet from origin 1 is data arriving on VC 1, and leaves port 1 on a data VC (round robin alone
// would give it VC 2, the one after the last it took there).
// With -DTB_STRAP_REGS=1 the router is built as the simulator builds it, its straps registered at reset.
`timescale 1ns/1ps
module tb_cc_ib_router;
`ifndef TB_FLIT_W
`define TB_FLIT_W 64
`endif
`ifndef TB_CLASSES
`define TB_CLASSES 1
`endif
`ifndef TB_REPLICATION
`define TB_REPLICATION 0
`endif
`ifndef TB_PER_BRANCH
`define TB_PER_BRANCH 1
`endif
`ifndef TB_VCS
`define TB_VCS 2
`endif
`ifndef TB_FAN_OUT
`define TB_FAN_OUT 0
`endif
`ifndef TB_ALL_PORT
`define TB_ALL_PORT 1
`endif
`ifndef TB_THROUGH_NODE
`define TB_THROUGH_NODE 0
`endif
`ifndef TB_MSG_CLASSES
`define TB_MSG_CLASSES 0
`endif
`ifndef TB_STRAP_REGS
`define TB_STRAP_REGS 0
`endif
    localparam integer P = 2, V = `TB_VCS, FW = `TB_FLIT_W, HF = FW >= 64 ? 1 : 2, PF = HF + 1;
    localparam integer VW = V > 1 ? $clog2(V) : 1, CB = V > 8 ? 4 : 8, CWORD = V <= 8 ? V * 8 : 64;
    // VC v is in class v * classes / V, so class 0 has the first ceil(V / classes) VCs. The forwarded
    // packet's VC: V/2, or with classes the first VC of class 1.
    localparam integer CLASS0_VCS = (V + `TB_CLASSES - 1) / `TB_CLASSES;
    localparam integer MSG = `TB_MSG_CLASSES, DATA_VCS = MSG != 0 ? V - V / 2 : V;  // (message classes: tokens from DATA_VCS)
    localparam integer ARRIVE = `TB_CLASSES > 1 ? CLASS0_VCS : MSG != 0 ? DATA_VCS - 1 : V / 2;
    localparam integer OWN_LEN = MSG != 0 ? HF : PF;  // (with message classes the own packet is a token)
    localparam [4:0] CLASSES = `TB_CLASSES, VCS_STRAP = V;
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
    wire            src_taken, dlv_valid;
    wire [FW-1:0]   dlv_flit;
    wire [7:0]      dlv_source;
    wire [31:0]     cycle;
    localparam integer NI = P + (`TB_ALL_PORT != 0 ? P : 1);  // the router's inputs (one-port here: the first injection input's used)
    wire [NI*16-1:0] occupancy;
    localparam THRU = `TB_THROUGH_NODE != 0;
    wire [P-1:0]    thru_valid, thru_deliver, thru_keep;
    wire [P*PF*FW-1:0] thru_flits;
    reg             mem_valid = 0;
    reg  [PF*FW-1:0] mem_flits = 0;
    wire            mem_taken;

    cc_ib_router #(.PORTS(P), .VCS(V), .DEPTH(4), .PF_MAX(PF), .FLIT_W(FW), .CD_MAX(2), .ITERS(2), .PER_BRANCH(`TB_PER_BRANCH),
                   .ALL_PORT(`TB_ALL_PORT), .MSG_CLASSES(MSG),
                   .STRAP_REGS(`TB_STRAP_REGS)) dut (
        .clk(clk), .rst(rst), .load(load), .node_id(16'd0), .dim(5'd2), .packet_flits(PF[6:0]), .algo(2'd0),
        .sbt_rot(4'd0), .radix_bits(3'd0), .torus(1'b0), .datelines(2'd0), .vcs(VCS_STRAP), .route_classes(CLASSES), .msg_classes(MSG != 0), .tst_class_mix(1'b0), .tst_no_turn(1'b0), .vc_depth(8'd4), .switching(2'd2), .router_delay(8'd0), .credit_delay(4'd0),
        .link_delay(4'd0), .link_period(4'd1), .injection_delay(8'd0), .ejection_delay(4'd0), .ejection_vcs(5'd0), .alloc_iters(4'd1),
        .replication(`TB_REPLICATION != 0), .fan_out(`TB_FAN_OUT != 0), .tst_fan_stale(1'b0), .tst_freeze_pointers(1'b0), .tst_free_early(1'b0), .tst_short_credit(1'b0), .tst_own_first(1'b0),
        .through_node(THRU), .all_port(1'b0), .tst_queue_first(1'b0), .lnk_valid({P{1'b0}}), .lnk_flits({(P*PF*FW){1'b0}}),
        .lnk_transit({P{1'b0}}), .lnk_after({P{1'b0}}), .lnk_nb({(P*32){1'b0}}), .lnk_pr({(P*32){1'b0}}), .lnk_taken(), .thru_links(), .thru_keys(),
        .split_valid(), .split_links(), .split_keys(), .thru_valid(thru_valid), .thru_deliver(thru_deliver), .thru_keep(thru_keep),
        .thru_flits(thru_flits), .mem_valid(mem_valid), .mem_flits(mem_flits), .mem_taken(mem_taken), .in_valid(in_valid), .in_vc(in_vc), .in_flit(in_flit), .in_credit(in_credit),
        .out_valid(out_valid), .out_vc(out_vc), .out_flit(out_flit), .out_credit(credit_back),
        .src_valid(src_valid), .src_flits(src_flits), .src_made(32'd0), .src_taken(src_taken), .dlv_valid(dlv_valid),
        .dlv_flit(dlv_flit), .dlv_source(dlv_source), .cycle(cycle), .dbg_occupancy(occupancy),
        .dbg_vc_flits(), .dbg_vc_peaks(), .dbg_credits(), .dbg_ni_push(), .dbg_vc_state(), .dbg_owned(), .dbg_waiting());

    always #5 clk = !clk;
    // The downstream routers free each flit at once: its credit comes back in its VC's field at the next edge.
    integer q;
    always @(negedge clk) begin
        credit_back = {P*CWORD{1'b0}};
        for (q = 0; q < P; q = q + 1)
            if (out_valid[q]) credit_back[q*CWORD + out_vc[q*VW +: VW]*CB] = 1'b1;
    end
    integer errors = 0, deliveries = 0, credits_back = 0, forwarded = 0, thru_seen = 0, mem_takes = 0, largest_credit = 0;
    localparam [CWORD-1:0] FIELD = (1 << CB) - 1;  // a credit field's mask
    // header: origin [15:0], dest [31:16], broadcast [32]
    localparam [63:0] OWN = 64'h0000_0001_0000_0000 | (MSG != 0 ? 64'd1 << 49 : 64'd0), OWN_PAYLOAD = 64'hABCD;  // ([49]: a token)
    localparam [63:0] FROM1 = 64'h0000_0001_0000_0001, FROM1_PAYLOAD = 64'h1234;
    // Flit i of a packet on the link: the header (or its halves), then the payload word (its low FW bits).
    function [FW-1:0] flit_of(input [63:0] header, input [63:0] payload, input integer i);
        reg [127:0] wide;
        begin
            wide = i < HF ? {64'd0, header} >> (32 * i * (HF - 1)) : {64'd0, payload};
            flit_of = wide[FW-1:0];
        end
    endfunction
    integer i, j;
    reg counting = 0;
    always @(negedge clk) if (counting) begin
        if (dlv_valid) deliveries = deliveries + 1;
        if (out_valid[1]) forwarded = forwarded + 1;
        if (out_valid[1] && CLASSES > 1 && out_vc[VW +: VW] != ARRIVE) begin
            $display("FAIL: the forwarded packet left its route class (VC %0d)", out_vc[VW +: VW]); errors = errors + 1;
        end
        if (out_valid[1] && out_vc[VW +: VW] >= DATA_VCS) begin
            $display("FAIL: the forwarded data packet left its message class (VC %0d)", out_vc[VW +: VW]); errors = errors + 1;
        end
        if (out_valid[0]) begin $display("FAIL: a flit back on port 0"); errors = errors + 1; end
        // Port 0's credit word: one credit a freed flit in the arriving VC's field, nothing elsewhere.
        if ((in_credit[0 +: CWORD] & ~(FIELD << (ARRIVE * CB))) != 0) begin
            $display("FAIL: a credit outside VC %0d's field: %h", ARRIVE, in_credit[0 +: CWORD]); errors = errors + 1;
        end
        credits_back = credits_back + ((in_credit[0 +: CWORD] >> (ARRIVE * CB)) & FIELD);
        if (((in_credit[0 +: CWORD] >> (ARRIVE * CB)) & FIELD) > largest_credit)
            largest_credit = (in_credit[0 +: CWORD] >> (ARRIVE * CB)) & FIELD;
        if (thru_valid[1]) begin $display("FAIL: a packet through the node from port 1"); errors = errors + 1; end
        if (thru_valid[0]) begin
            thru_seen = thru_seen + 1;
            if (!thru_deliver[0] || thru_keep[0]) begin
                $display("FAIL: the packet through the node: deliver %b keep %b (expected 1, 0: it went straight in)",
                         thru_deliver[0], thru_keep[0]); errors = errors + 1;
            end
            for (j = 0; j < PF; j = j + 1)
                if (thru_flits[j*FW +: FW] != flit_of(FROM1, FROM1_PAYLOAD, j)) begin
                    $display("FAIL: flit %0d through the node %h", j, thru_flits[j*FW +: FW]); errors = errors + 1;
                end
        end
        if (mem_taken) mem_takes = mem_takes + 1;
    end
    task expect_link(input integer port, input integer vc, input [FW-1:0] flit);
        if (!out_valid[port] || out_vc[port*VW +: VW] != vc[VW-1:0] || out_flit[port*FW +: FW] != flit) begin
            $display("FAIL cycle %0d: port %0d expected vc %0d flit %h, got valid %b vc %0d flit %h",
                     cycle, port, vc, flit, out_valid[port], out_vc[port*VW +: VW], out_flit[port*FW +: FW]);
            errors = errors + 1;
        end
    endtask

    initial begin
        @(negedge clk) rst = 0;
        src_valid = 1;
        for (i = 0; i < PF; i = i + 1) src_flits[i*FW +: FW] = flit_of(OWN, OWN_PAYLOAD, i);
        @(negedge clk);  // edge 0 done
        if (!src_taken) begin $display("FAIL: the interface did not take the packet"); errors = errors + 1; end
        src_valid = 0;
        for (i = 1; i < HF; i = i + 1) begin  // (a header's second flit enters the injection VC at edge 1)
            if (out_valid != 0) begin $display("FAIL cycle %0d: a flit left before its header was in", cycle); errors = errors + 1; end
            @(negedge clk);
        end
        for (i = 0; i < 2 * OWN_LEN; i = i + 1) begin
            expect_link(i / OWN_LEN, (MSG != 0 ? DATA_VCS : 0) + (CLASSES > 1 && CLASS0_VCS < 2 ? 0 : i / OWN_LEN),
                        flit_of(OWN, OWN_PAYLOAD, i % OWN_LEN));
            @(negedge clk);
        end
        if (out_valid != 0) begin $display("FAIL: a link still busy after the broadcast"); errors = errors + 1; end
        counting = 1;
        in_valid = 2'b01; in_vc = {P*VW{1'b0}}; in_vc[0 +: VW] = ARRIVE[VW-1:0];
        for (i = 0; i < PF; i = i + 1) begin
            in_flit = {P*FW{1'b0}};
            in_flit[0 +: FW] = flit_of(FROM1, FROM1_PAYLOAD, i);
            @(negedge clk);
        end
        in_valid = 0;
        repeat (12) @(negedge clk);
        if (THRU) begin  // the node's memory offers the packet again: taken once, forwarded, not delivered
            mem_valid = 1;
            for (i = 0; i < PF; i = i + 1) mem_flits[i*FW +: FW] = flit_of(FROM1, FROM1_PAYLOAD, i);
            @(negedge clk);
            mem_valid = 0;
            repeat (12) @(negedge clk);
            if (forwarded != 2 * PF || deliveries != 0 || credits_back != PF || largest_credit != PF || thru_seen != 1 ||
                mem_takes != 1) begin
                $display("FAIL: through the node: forwarded %0d flits (expected %0d), delivered %0d on the local port (0), %0d credits back (%0d), at most %0d in a word (%0d), %0d packets through the node (1), the memory's taken %0d times (1)",
                         forwarded, 2 * PF, deliveries, credits_back, PF, largest_credit, PF, thru_seen, mem_takes);
                errors = errors + 1;
            end
        end else if (forwarded != PF || deliveries != PF || credits_back != PF) begin
            $display("FAIL: forwarded %0d flits, delivered %0d, credits back %0d (expected %0d each)", forwarded, deliveries,
                     credits_back, PF);
            errors = errors + 1;
        end
        if (errors == 0) $display("PASS tb_cc_ib_router");
        $finish;
    end
endmodule
