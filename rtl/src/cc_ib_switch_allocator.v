// The switch allocator, separable and input-first, one iteration: routers/blocks/switch_allocator.cpp
// bit for bit. Each input port's arbiter picks one of its requesting virtual channels (priority, then
// round robin over VC numbers); each output's arbiter picks one of the inputs whose pick goes there
// (that request's priority, then round robin over input ports, the injection port counted as port
// `dim`). Output PORTS is the local port (delivery to the node). A grant moves both pointers.
module cc_ib_switch_allocator #(
    parameter integer PORTS = 8,
    parameter integer VCS = 4,
    parameter integer OW = 4,   // bits of an output number (0..PORTS)
    parameter integer VW = 2,
    parameter integer IW = 5    // bits of an input port's logical index, and of vcs
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          run,
    input  wire                          tst_freeze,  // test hook: the input pointers stick (a planted bug)
    input  wire [4:0]                    dim,
    input  wire [3:0]                    vcs,
    input  wire [(PORTS+1)*VCS-1:0]      req,
    input  wire [(PORTS+1)*VCS*OW-1:0]   out,
    input  wire [(PORTS+1)*VCS*32-1:0]   pri,
    output wire [PORTS:0]                grant,      // per input port
    output wire [(PORTS+1)*VW-1:0]       granted_vc,
    output wire [(PORTS+1)*OW-1:0]       granted_out
);
    localparam integer NIN = PORTS + 1;
    reg [IW-1:0] in_pointer [0:NIN-1];
    reg [IW-1:0] out_pointer [0:NIN-1];

    // Input stage.
    wire [NIN-1:0]    picked;
    wire [NIN*32-1:0] pick;
    wire [VCS*IW-1:0] vc_index;
    wire [NIN*OW-1:0] pick_out;
    wire [NIN*32-1:0] pick_pri;
    wire [NIN*IW-1:0] in_index;
    genvar p, v;
    generate
        for (v = 0; v < VCS; v = v + 1) begin : g_vc_index
            assign vc_index[v*IW +: IW] = v;
        end
        for (p = 0; p < NIN; p = p + 1) begin : g_in
            cc_ib_arbiter #(.N(VCS), .IW(IW)) u_arb (
                .req(req[p*VCS +: VCS]), .pri(pri[p*VCS*32 +: VCS*32]), .index(vc_index), .pointer(in_pointer[p]),
                .n({{(IW-4){1'b0}}, vcs}), .valid(picked[p]), .winner(pick[p*32 +: 32]));
            wire [31:0] r = p * VCS + pick[p*32 +: 32];
            assign pick_out[p*OW +: OW] = out[r*OW +: OW];
            assign pick_pri[p*32 +: 32] = pri[r*32 +: 32];
            assign in_index[p*IW +: IW] = p == PORTS ? dim[IW-1:0] : p;
        end
    endgenerate

    // Output stage.
    wire [NIN-1:0]    won;
    wire [NIN*32-1:0] winner;
    wire [IW-1:0]     inputs = dim[IW-1:0] + 1'b1;
    generate
        for (p = 0; p < NIN; p = p + 1) begin : g_out
            wire [NIN-1:0] asks;
            genvar j;
            for (j = 0; j < NIN; j = j + 1) begin : g_ask
                assign asks[j] = picked[j] && {{(32-OW){1'b0}}, pick_out[j*OW +: OW]} == p;
            end
            cc_ib_arbiter #(.N(NIN), .IW(IW)) u_arb (
                .req(asks), .pri(pick_pri), .index(in_index), .pointer(out_pointer[p]), .n(inputs),
                .valid(won[p]), .winner(winner[p*32 +: 32]));
        end
        for (p = 0; p < NIN; p = p + 1) begin : g_grant
            wire [31:0] o = {{(32-OW){1'b0}}, pick_out[p*OW +: OW]};
            assign grant[p] = picked[p] && won[o] && winner[o*32 +: 32] == p;
            assign granted_vc[p*VW +: VW] = pick[p*32 +: VW];
            assign granted_out[p*OW +: OW] = pick_out[p*OW +: OW];
        end
    endgenerate

    integer r;
    always @(posedge clk) begin
        if (rst) begin
            for (r = 0; r < NIN; r = r + 1) begin
                in_pointer[r] <= {IW{1'b0}};
                out_pointer[r] <= {IW{1'b0}};
            end
        end else if (run) begin
            for (r = 0; r < NIN; r = r + 1)
                if (grant[r]) begin
                    if (!tst_freeze) in_pointer[r] <= {{(IW-VW){1'b0}}, pick[r*32 +: VW]} + 1'b1 == {{(IW-4){1'b0}}, vcs} ?
                                     {IW{1'b0}} : {{(IW-VW){1'b0}}, pick[r*32 +: VW]} + 1'b1;
                    out_pointer[pick_out[r*OW +: OW]] <= in_index[r*IW +: IW] + 1'b1 == inputs ? {IW{1'b0}} : in_index[r*IW +: IW] + 1'b1;
                end
        end
    end
endmodule
