// The input-buffered router's crossbar (routers/blocks/crossbar.h): at each edge it connects every
// input the switch allocator granted to its output for one flit (the links, then the local output
// to the node), and it paces the outputs: one that carried a flit carries its next `link_period`
// edges later (`out_free`). The input units give each granted input's flit, its output VC and
// whether it is the packet's tail. With fan-out replication it multicasts: a granted input's flit
// crosses to every output it won, each copy on its own output VC. (The SystemC crossbar's lanes to the
// node, all-port, are not built here.)
module cc_ib_crossbar #(
    parameter integer PORTS = 8,
    parameter integer NIN = 9,      // inputs: the links', then the injection port
    parameter integer VCS = 4,
    parameter integer VW = 2,
    parameter integer FLIT_W = 64
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   run,
    input  wire [31:0]            cycle,
    input  wire [3:0]             link_period,
    // the switch allocator's grants, per input
    input  wire [NIN-1:0]         grant,
    input  wire [NIN*(PORTS+1)-1:0] granted_outs, // the outputs each won (a bit each; more than one: a fan-out)
    input  wire [NIN*VW-1:0]      granted_vc,     // the input VC granted
    // the granted inputs' flits
    input  wire [NIN*FLIT_W-1:0]  in_flit,
    input  wire [NIN*(PORTS+1)*VW-1:0] in_out_vc, // per output, its copy's output VC
    input  wire [NIN-1:0]         in_tail,
    // per link output
    output reg  [PORTS-1:0]       send,
    output reg  [PORTS-1:0]       send_tail,
    output reg  [PORTS*VW-1:0]    send_vc,
    output reg  [PORTS*FLIT_W-1:0] send_flit,
    // the local output
    output reg                    local_send,
    output reg                    local_tail,
    output reg  [VW-1:0]          local_vc,
    output reg  [FLIT_W-1:0]      local_flit,
    output reg  [7:0]             local_source,   // the input VC it comes from (port * VCS + vc)
    // the outputs (the local one last) that may carry a flit at this edge
    output wire [PORTS:0]         out_free
);
    reg [31:0] free_at [0:PORTS];
    genvar q;
    generate
        for (q = 0; q <= PORTS; q = q + 1) begin : g_free
            assign out_free[q] = free_at[q] <= cycle;
        end
    endgenerate

    // Each output's multiplexer: the input granted it (at most one: the switch allocator's match).
    integer i, o, k;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] source;  // (its low byte is the input VC)
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        send = {PORTS{1'b0}};
        send_tail = {PORTS{1'b0}};
        send_vc = {(PORTS*VW){1'b0}};
        send_flit = {(PORTS*FLIT_W){1'b0}};
        local_send = 1'b0;
        local_tail = 1'b0;
        local_vc = {VW{1'b0}};
        local_flit = {FLIT_W{1'b0}};
        source = 32'd0;
        for (o = 0; o < PORTS; o = o + 1)
            for (i = 0; i < NIN; i = i + 1)
                if (grant[i] && granted_outs[i*(PORTS+1) + o]) begin
                    send[o] = 1'b1;
                    send_tail[o] = in_tail[i];
                    send_vc[o*VW +: VW] = in_out_vc[(i*(PORTS+1) + o)*VW +: VW];
                    send_flit[o*FLIT_W +: FLIT_W] = in_flit[i*FLIT_W +: FLIT_W];
                end
        for (i = 0; i < NIN; i = i + 1)
            if (grant[i] && granted_outs[i*(PORTS+1) + PORTS]) begin
                local_send = 1'b1;
                local_tail = in_tail[i];
                local_vc = in_out_vc[(i*(PORTS+1) + PORTS)*VW +: VW];
                local_flit = in_flit[i*FLIT_W +: FLIT_W];
                source = i * VCS + {{(32-VW){1'b0}}, granted_vc[i*VW +: VW]};
            end
        local_source = source[7:0];
    end

    // The outputs' next free edges: a flit sent at this edge, the output's next one link_period later.
    always @(posedge clk)
        if (rst) begin
            for (k = 0; k <= PORTS; k = k + 1) free_at[k] <= 32'd0;
        end else if (run) begin
            if (local_send) free_at[PORTS] <= cycle + {28'd0, link_period};
            for (k = 0; k < PORTS; k = k + 1)
                if (send[k]) free_at[k] <= cycle + {28'd0, link_period};
        end
endmodule
