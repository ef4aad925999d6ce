// Injection unit: one output port's queue in the network interface. Mirrors the injection queues of
// routers/router_core.h: a copy of one of the node's own packets waits here, in the node's order, when
// its output queue had no space (or this queue was not empty) at the edge the local port took it; the
// head enters the output queue as space allows. Entries hold the copy's flits and queue key.
`include "cc_defs.vh"
module cc_injection_unit #(
    parameter integer DEPTH = 128,
    parameter integer PF_MAX = 4
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 push,
    input  wire [PF_MAX*64-1:0] push_flits,
    input  wire [31:0]          push_not_before,
    input  wire [31:0]          push_priority,
    input  wire                 pop,        // the head entered its output queue at this edge
    output wire                 valid,      // not empty
    output wire [PF_MAX*64-1:0] head_flits,
    output wire [31:0]          head_not_before,
    output wire [31:0]          head_priority,
    output reg  [15:0]          count
);
    localparam integer PW = PF_MAX * 64;
    localparam integer AW = $clog2(DEPTH);
    reg [PW-1:0] e_flits[0:DEPTH-1];
    reg [31:0]   e_nb[0:DEPTH-1];
    reg [31:0]   e_pri[0:DEPTH-1];
    reg [AW-1:0] head, tail;
    assign valid = count != 16'd0;
    assign head_flits = e_flits[head];
    assign head_not_before = e_nb[head];
    assign head_priority = e_pri[head];
    always @(posedge clk) begin
        if (rst) begin
            head <= {AW{1'b0}};
            tail <= {AW{1'b0}};
            count <= 16'd0;
        end else begin
            if (push) begin
                e_flits[tail] <= push_flits;
                e_nb[tail] <= push_not_before;
                e_pri[tail] <= push_priority;
                tail <= tail + 1'b1;
            end
            if (pop) head <= head + 1'b1;
            count <= count + (push ? 16'd1 : 16'd0) - (pop ? 16'd1 : 16'd0);
        end
    end
endmodule
