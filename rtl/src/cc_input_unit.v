// Input unit: assembles one packet from its link (store and forward), offers it to the crossbar as
// soon as its last flit is in, and holds it, with ready low, until the crossbar places it.
// Mirrors routers/input_unit.{h,cpp}.
`include "cc_defs.vh"
module cc_input_unit #(
    parameter integer PF_MAX = 4
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   run,           // low during reset and preload: the link is idle
    input  wire [6:0]             packet_flits,
    input  wire                   in_valid,
    input  wire [63:0]            in_flit,
    output reg                    in_ready,
    input  wire                   placed,        // the crossbar placed the offered packet
    output wire                   offer,         // a complete packet is here
    output wire                   completing,    // ... and its last flit arrived at this edge
    output wire [PF_MAX*64-1:0]   flits,
    output wire                   holding_now
);
    reg  [6:0]  count;
    reg  [63:0] store [0:PF_MAX-1];
    reg         holding;
    wire        got = run && in_ready && in_valid;
    wire        ctrl = (count == 7'd0) ? `CC_KIND(in_flit) : `CC_KIND(store[0]);
    wire [6:0]  length = ctrl ? 7'd1 : packet_flits;
    assign completing = got && (count + 7'd1 == length);
    assign offer = holding || completing;
    assign holding_now = holding;

    genvar i;
    generate
        for (i = 0; i < PF_MAX; i = i + 1) begin : g_flit
            assign flits[i*64 +: 64] = (!holding && completing && count == i) ? in_flit : store[i];
        end
    endgenerate

    integer k;
    always @(posedge clk) begin
        if (rst) begin
            count <= 7'd0;
            holding <= 1'b0;
            in_ready <= 1'b0;
            for (k = 0; k < PF_MAX; k = k + 1) store[k] <= 64'd0;
        end else if (run) begin
            if (got) begin
                // (the bits that index the store: one for a 1-flit store, not zero)
                store[count[(PF_MAX > 1 ? $clog2(PF_MAX) : 1)-1:0]] <= in_flit;
                count <= completing ? 7'd0 : count + 7'd1;
            end
            holding <= offer && !placed;
            in_ready <= !(offer && !placed);
        end
    end
endmodule
