// An output port of the input-buffered router (routers/blocks/vc_output_port.h): per downstream
// virtual channel the credits left and whether an input VC owns it (from VC allocation until its
// packet's tail has left); the credits coming back (8 bits per VC on the link's credit word), usable
// `credit_delay` edges after the edge that reads them; and the link's registers (valid, VC, flit).
module cc_ib_output_unit #(
    parameter integer VCS = 4,
    parameter integer VW = 2,
    parameter integer FLIT_W = 64,
    parameter integer CD_MAX = 8,    // largest credit delay built
    parameter integer CWORD = 32     // the credit word's bits: VCS <= 8 ? VCS * 8 : 64
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              run,
    input  wire [4:0]        vcs,
    input  wire [7:0]        vc_depth,
    input  wire [3:0]        credit_delay,
    input  wire [CWORD-1:0]  credit_in,     // the link's credit word
    output wire [VCS*9-1:0]  credits_now,   // credits usable at this edge (those due added)
    output wire [VCS-1:0]    owned,
    output reg  [VCS*9-1:0]  credits_held,  // observation: credits left plus those on their way back
    output reg               credits_coming,  // ... some are on their way back
    input  wire [VCS-1:0]    take,          // VC allocation at this edge
    input  wire              send,          // a flit leaves at this edge
    input  wire [VW-1:0]     send_vc,
    input  wire [FLIT_W-1:0] send_flit,
    input  wire              send_tail,
    output reg               out_valid,
    output reg  [VW-1:0]     out_vc,
    output reg  [FLIT_W-1:0] out_flit
);
    reg [CWORD-1:0] line [0:CD_MAX-1];   // line[k]: the word read k + 1 edges ago
    reg [8:0]       credits [0:VCS-1];
    reg [VCS-1:0]   owner_valid;
    reg [CWORD-1:0] due;
    wire narrow = vcs > 5'd8;  // 4-bit fields
    // VC w's field of a credit word.
    function [7:0] field_of(input [CWORD-1:0] word, input integer w);
        begin
            field_of = 8'd0;
            if (narrow) field_of = {4'd0, word[w*4 +: 4]};
            else if (w < 8) field_of = word[w*8 +: 8];
        end
    endfunction
    integer d;
    always @* begin
        due = credit_in;
        for (d = 0; d < CD_MAX; d = d + 1)
            if ({28'd0, credit_delay} == d + 1) due = line[d];
    end
    assign owned = owner_valid;
    genvar w;
    generate
        for (w = 0; w < VCS; w = w + 1) begin : g_vc
            assign credits_now[w*9 +: 9] = credits[w] + {1'b0, field_of(due, w)};
        end
    endgenerate

    integer k, w2;
    always @* begin
        credits_held = {VCS*9{1'b0}};
        credits_coming = 1'b0;
        for (k = 0; k < CD_MAX; k = k + 1)
            if (k < {28'd0, credit_delay} && line[k] != {CWORD{1'b0}}) credits_coming = 1'b1;
        for (w2 = 0; w2 < VCS; w2 = w2 + 1) begin
            credits_held[w2*9 +: 9] = credits[w2];
            for (k = 0; k < CD_MAX; k = k + 1)
                if (k < {28'd0, credit_delay}) credits_held[w2*9 +: 9] = credits_held[w2*9 +: 9] + {1'b0, field_of(line[k], w2)};
        end
    end
    always @(posedge clk) begin
        if (rst) begin
            for (k = 0; k < CD_MAX; k = k + 1) line[k] <= {CWORD{1'b0}};
            for (k = 0; k < VCS; k = k + 1) credits[k] <= {1'b0, vc_depth};
            owner_valid <= {VCS{1'b0}};
            out_valid <= 1'b0;
            out_vc <= {VW{1'b0}};
            out_flit <= {FLIT_W{1'b0}};
        end else if (run) begin
            line[0] <= credit_in;
            for (k = 1; k < CD_MAX; k = k + 1) line[k] <= line[k - 1];
            for (k = 0; k < VCS; k = k + 1)
                credits[k] <= credits_now[k*9 +: 9] - {8'd0, send && {{(32-VW){1'b0}}, send_vc} == k};
            owner_valid <= (owner_valid | take) & ~({{(VCS-1){1'b0}}, send && send_tail} << send_vc);
            out_valid <= send;
            if (send) begin
                out_vc <= send_vc;
                out_flit <= send_flit;
            end
        end
    end
endmodule
