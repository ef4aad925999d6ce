// The virtual-channel allocator, separable and input-first, one iteration: routers/blocks/vc_allocator.cpp
// bit for bit. Each requesting input VC picks the first of its candidate output VCs from its own
// round-robin pointer on; each output VC's arbiter (cc_ib_arbiter) picks one of the input VCs that
// picked it, the control logic's priority first, then round robin over the input VCs' logical
// indices (port * vcs + vc, the injection port counted as port `dim`). A grant moves both pointers
// just past it.
module cc_ib_vc_allocator #(
    parameter integer PORTS = 8,  // network ports built (outputs); inputs are PORTS + 1
    parameter integer VCS = 4,
    parameter integer PW = 3,     // bits of an output port number
    parameter integer VW = 2,     // bits of a VC number
    parameter integer IW = 6      // bits of an input VC's logical index
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          run,
    input  wire [4:0]                    dim,
    input  wire [3:0]                    vcs,
    input  wire [(PORTS+1)*VCS-1:0]      req,
    input  wire [(PORTS+1)*VCS*PW-1:0]   out,
    input  wire [(PORTS+1)*VCS*VCS-1:0]  candidates,
    input  wire [(PORTS+1)*VCS*32-1:0]   pri,
    output wire [(PORTS+1)*VCS-1:0]      grant,
    output wire [(PORTS+1)*VCS*VW-1:0]   granted_vc
);
    localparam integer NV = (PORTS + 1) * VCS;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] n_wide = ({27'd0, dim} + 32'd1) * {28'd0, vcs};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IW-1:0] n = n_wide[IW-1:0];

    // Input stage: each input VC's pick, and its logical index.
    reg  [VW-1:0]    pointer [0:NV-1];
    reg  [NV*VW-1:0] pick;
    reg  [NV-1:0]    picked;
    reg  [NV*IW-1:0] index;
    integer i, k, w, port;
    /* verilator lint_off UNUSEDSIGNAL */
    integer li;
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        pick = {NV*VW{1'b0}};
        picked = {NV{1'b0}};
        index = {NV*IW{1'b0}};
        for (i = 0; i < NV; i = i + 1) begin
            port = i / VCS == PORTS ? {27'd0, dim} : i / VCS;
            li = port * {28'd0, vcs} + i % VCS;
            index[i*IW +: IW] = li[IW-1:0];
            for (k = VCS - 1; k >= 0; k = k - 1) begin  // the lowest k wins: the first from the pointer on
                w = {{(32-VW){1'b0}}, pointer[i]} + k;
                if (w >= {28'd0, vcs}) w = w - {28'd0, vcs};
                if (k < {28'd0, vcs} && req[i] && candidates[i*VCS + w]) begin
                    pick[i*VW +: VW] = w[VW-1:0];
                    picked[i] = 1'b1;
                end
            end
        end
    end

    // Output stage: one arbiter per output VC.
    reg [IW-1:0] rr [0:PORTS*VCS-1];
    wire [PORTS*VCS-1:0]    won;
    wire [PORTS*VCS*32-1:0] winner;
    genvar o;
    generate
        for (o = 0; o < PORTS * VCS; o = o + 1) begin : g_out
            wire [NV-1:0] asks;
            genvar j;
            for (j = 0; j < NV; j = j + 1) begin : g_in
                assign asks[j] = picked[j] && {{(32-PW){1'b0}}, out[j*PW +: PW]} == o / VCS &&
                                 {{(32-VW){1'b0}}, pick[j*VW +: VW]} == o % VCS;
            end
            cc_ib_arbiter #(.N(NV), .IW(IW)) u_arb (
                .req(asks), .pri(pri), .index(index), .pointer(rr[o]), .n(n),
                .valid(won[o]), .winner(winner[o*32 +: 32]));
        end
        for (o = 0; o < NV; o = o + 1) begin : g_grant
            wire [31:0] ov = {{(32-PW){1'b0}}, out[o*PW +: PW]} * VCS + {{(32-VW){1'b0}}, pick[o*VW +: VW]};
            assign grant[o] = picked[o] && won[ov] && winner[ov*32 +: 32] == o;
            assign granted_vc[o*VW +: VW] = pick[o*VW +: VW];
        end
    endgenerate

    wire [IW-1:0] n_minus_1 = n - 1'b1;
    generate
        for (o = 0; o < NV; o = o + 1) begin : g_pointer
            always @(posedge clk)
                if (rst) pointer[o] <= {VW{1'b0}};
                else if (run && grant[o])
                    pointer[o] <= {{(32-VW){1'b0}}, pick[o*VW +: VW]} + 32'd1 == {28'd0, vcs} ? {VW{1'b0}} : pick[o*VW +: VW] + 1'b1;
        end
        for (o = 0; o < PORTS * VCS; o = o + 1) begin : g_rr
            // (at most one input VC is granted an output VC)
            reg          hit;
            reg [IW-1:0] next;
            integer r;
            always @* begin
                hit = 1'b0;
                next = {IW{1'b0}};
                for (r = 0; r < NV; r = r + 1)
                    if (grant[r] && {{(32-PW){1'b0}}, out[r*PW +: PW]} * VCS + {{(32-VW){1'b0}}, pick[r*VW +: VW]} == o) begin
                        hit = 1'b1;
                        next = index[r*IW +: IW] == n_minus_1 ? {IW{1'b0}} : index[r*IW +: IW] + 1'b1;
                    end
            end
            always @(posedge clk)
                if (rst) rr[o] <= {IW{1'b0}};
                else if (run && hit) rr[o] <= next;
        end
    endgenerate
endmodule
