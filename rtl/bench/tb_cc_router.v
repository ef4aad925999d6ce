// Directed self-checking bench for cc_router under Icarus (and any Verilog-2005 simulator):
// a 3-cube router at node 0 with the SBT control logic.
//   1. preload: its own broadcast enters through the local port during load;
//   2. cycle 0: the packet leaves on all three ports at once (x = 0: every dimension);
//   3. a packet from origin 1 (x = 1) arriving on port 0 is delivered and forwarded on ports 1 and 2
//      only, in the cycle after its last flit (store and forward);
//   4. with out_ready low on port 1, the flit stays on the link until accepted (back-pressure).
`timescale 1ns/1ps
module tb_cc_router;
    localparam integer D = 4, PF = 2;
    reg clk = 0, rst = 1, load = 0;
    reg  [D-1:0]    in_valid = 0, out_ready = 0;
    reg  [D*64-1:0] in_flit = 0;
    wire [D-1:0]    in_ready, out_valid, dlv_valid, dbg_started, dbg_holding;
    wire [D*64-1:0] out_flit;
    reg             inj_valid = 0;
    reg  [PF*64-1:0] inj_flits = 0;
    wire            inj_placed, dbg_waiting;
    wire [31:0]     cycle;
    wire [15:0]     dbg_enq_copies;
    wire [D*16-1:0] dbg_occupancy, dbg_injection;

    cc_router #(.D_MAX(D), .QDEPTH(8), .PF_MAX(PF)) dut (
        .clk(clk), .rst(rst), .load(load), .node_id(16'd0), .dim(5'd3), .packet_flits(7'd1), .algo(2'd0),
        .sbt_rot(4'd0), .queue_depth(16'd0), .tst_invert_priority(1'b0),
        .in_valid(in_valid), .in_flit(in_flit), .in_ready(in_ready),
        .out_valid(out_valid), .out_flit(out_flit), .out_ready(out_ready),
        .inj_valid(inj_valid), .inj_flits(inj_flits), .inj_placed(inj_placed), .dlv_valid(dlv_valid),
        .cycle(cycle), .dbg_enq_copies(dbg_enq_copies), .dbg_started(dbg_started),
        .dbg_occupancy(dbg_occupancy), .dbg_holding(dbg_holding), .dbg_injection(dbg_injection),
        .dbg_waiting(dbg_waiting));

    always #0.5 clk = ~clk;

    // A broadcast header from `origin` with valid check bits (models/packet.cpp).
    function [63:0] header(input [15:0] origin);
        reg [57:0] b;
        reg [35:0] x36;
        reg [17:0] x18;
        reg [5:0]  c;
        begin
            b = {8'd0, 1'b0, 4'd0, 12'd0, 1'b1, 16'd0, origin};
            x36 = b[35:0] ^ {14'd0, b[57:36]};
            x18 = x36[17:0] ^ x36[35:18];
            c = x18[5:0] ^ x18[11:6] ^ x18[17:12] ^ 6'h2a;
            header = {c, b};
        end
    endfunction

    task expect(input ok, input [8*48-1:0] what);
        if (!ok) begin
            $display("FAIL at cycle %0d: %0s", cycle, what);
            $fatal(1);
        end
    endtask

    initial begin
        @(posedge clk); #0.1 rst = 0; load = 1;
        inj_valid = 1; inj_flits = {64'd0, header(16'd0)};
        @(posedge clk); #0.1 expect(inj_placed, "own packet placed during load");
        inj_valid = 0; load = 0; out_ready = 4'b1111;
        @(posedge clk); #0.1  // cycle 0
        expect(out_valid[2:0] == 3'b111, "own broadcast on ports 0, 1, 2");
        expect(out_flit[63:0] == header(16'd0) && out_flit[191:128] == header(16'd0), "header on the links");
        expect(in_ready[2:0] == 3'b111, "ready after reset");
        in_valid[0] = 1; in_flit[63:0] = header(16'd1);
        @(posedge clk); #0.1  // cycle 1: the packet from origin 1 has arrived
        in_valid[0] = 0; out_ready[1] = 0;
        expect(dlv_valid[0], "packet from origin 1 delivered");
        expect(out_valid[2:0] == 3'b110 && out_flit[127:64] == header(16'd1) && out_flit[191:128] == header(16'd1),
               "forwarded on ports 1 and 2, not 0");
        @(posedge clk); #0.1
        expect(out_valid[1] && !out_valid[2], "port 1 holds its flit while ready is low");
        out_ready[1] = 1;
        @(posedge clk); #0.1
        expect(!out_valid[1], "port 1 done once accepted");
        $display("PASS tb_cc_router");
        $finish;
    end
endmodule
