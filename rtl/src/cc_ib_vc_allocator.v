// The virtual-channel allocator, separable and input-first: routers/blocks/vc_allocator.cpp bit for
// bit. Each requesting input VC picks the first of its candidate output VCs from its own round-robin
// pointer on; each output VC's arbiter (cc_ib_arbiter) picks one of the input VCs that picked it, the
// control logic's priority first, then round robin over the input VCs' logical indices (port * vcs +
// vc, the injection inputs counted from port `dim`: one, or one per link with the all-port network
// interface, `injections` of them). The outputs are the PORTS links and the local port
// (PORTS: the node's ejection VCs, asked for only with `ejection_vcs`). Up to ITERS iterations (`iters` of them are used):
// in each, the input VCs still unmatched pick again among the output VCs not yet taken. A grant moves
// both pointers just past it (at the cycle's end: a matched input VC or taken output VC takes no part
// in a later iteration, so this is the C++ moving them at each grant).
module cc_ib_vc_allocator #(
    parameter integer PORTS = 8,  // network ports built (outputs: PORTS + 1 with the local port)
    parameter integer VCS = 4,
    parameter integer ITERS = 1,  // iterations built
    parameter integer PW = 3,     // bits of an output number (PORTS: the local port)
    parameter integer VW = 2,     // bits of a VC number
    parameter integer IW = 6,     // bits of an input VC's logical index
    parameter integer NI = PORTS + 1  // inputs built: the links', then the injection inputs
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          run,
    input  wire [4:0]                    dim,
    input  wire [4:0]                    injections,  // the injection inputs used (1, or dim: all-port)
    input  wire [4:0]                    vcs,
    input  wire [3:0]                    iters,       // 1..ITERS
    input  wire [NI*VCS-1:0]             req,
    input  wire [NI*VCS*PW-1:0]          out,
    input  wire [NI*VCS*VCS-1:0]         candidates,
    input  wire [NI*VCS*32-1:0]          pri,
    output wire [NI*VCS-1:0]             grant,
    output wire [NI*VCS*VW-1:0]          granted_vc
);
    localparam integer NV = NI * VCS;
    localparam integer NO = (PORTS + 1) * VCS;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] n_wide = ({27'd0, dim} + {27'd0, injections}) * {27'd0, vcs};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IW-1:0] n = n_wide[IW-1:0];

    // Each input VC's logical index.
    reg  [NV*IW-1:0] index;
    integer i, port;
    /* verilator lint_off UNUSEDSIGNAL */
    integer li;
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        index = {NV*IW{1'b0}};
        for (i = 0; i < NV; i = i + 1) begin
            port = i / VCS >= PORTS ? {27'd0, dim} + i / VCS - PORTS : i / VCS;
            li = port * {27'd0, vcs} + i % VCS;
            index[i*IW +: IW] = li[IW-1:0];
        end
    end

    reg  [VW-1:0] pointer [0:NV-1];
    reg  [IW-1:0] rr [0:NO-1];
    genvar o, k;
    generate
        // Iteration k: the input VCs matched and the output VCs taken before it (done, busy) and
        // after it, and each input VC's grant so far (from the iteration that made it).
        for (k = 0; k < ITERS; k = k + 1) begin : g_iter
            wire          active = {28'd0, iters} > k;
            wire [NV-1:0] done;
            wire [NO-1:0] busy;
            wire [NV*VW-1:0] vc_before;
            if (k == 0) begin : g_first
                assign done = {NV{1'b0}};
                assign busy = {NO{1'b0}};
                assign vc_before = {NV*VW{1'b0}};
            end else begin : g_next
                assign done = g_iter[k-1].done_after;
                assign busy = g_iter[k-1].busy_after;
                assign vc_before = g_iter[k-1].vc_after;
            end
            // Input stage: the first free candidate from the pointer on.
            reg [NV*VW-1:0] pick;
            reg [NV-1:0]    picked;
            integer c, kk, w;
            always @* begin
                pick = {NV*VW{1'b0}};
                picked = {NV{1'b0}};
                for (c = 0; c < NV; c = c + 1)
                    for (kk = VCS - 1; kk >= 0; kk = kk - 1) begin  // the lowest kk wins: the first from the pointer on
                        w = {{(32-VW){1'b0}}, pointer[c]} + kk;
                        if (w >= {27'd0, vcs}) w = w - {27'd0, vcs};
                        if (active && !done[c] && kk < {27'd0, vcs} && req[c] && candidates[c*VCS + w] &&
                            !busy[{{(32-PW){1'b0}}, out[c*PW +: PW]} * VCS + w]) begin
                            pick[c*VW +: VW] = w[VW-1:0];
                            picked[c] = 1'b1;
                        end
                    end
            end
            // Output stage: one arbiter per output VC.
            wire [NO-1:0]    won;
            wire [NO*32-1:0] winner;
            for (o = 0; o < NO; o = o + 1) begin : g_out
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
            wire [NV-1:0]    granted;
            wire [NV*VW-1:0] vc_after;
            for (o = 0; o < NV; o = o + 1) begin : g_grant
                wire [31:0] ov = {{(32-PW){1'b0}}, out[o*PW +: PW]} * VCS + {{(32-VW){1'b0}}, pick[o*VW +: VW]};
                assign granted[o] = picked[o] && won[ov] && winner[ov*32 +: 32] == o;
                assign vc_after[o*VW +: VW] = granted[o] ? pick[o*VW +: VW] : vc_before[o*VW +: VW];
            end
            wire [NV-1:0] done_after = done | granted;
            /* verilator lint_off UNUSEDSIGNAL */  // (the last iteration's busy_after)
            wire [NO-1:0] busy_after = busy | won;
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    assign grant = g_iter[ITERS-1].done_after;
    assign granted_vc = g_iter[ITERS-1].vc_after;

    wire [IW-1:0] n_minus_1 = n - 1'b1;
    generate
        for (o = 0; o < NV; o = o + 1) begin : g_pointer
            always @(posedge clk)
                if (rst) pointer[o] <= {VW{1'b0}};
                else if (run && grant[o])
                    pointer[o] <= {{(32-VW){1'b0}}, granted_vc[o*VW +: VW]} + 32'd1 == {27'd0, vcs} ? {VW{1'b0}} :
                                  granted_vc[o*VW +: VW] + 1'b1;
        end
        for (o = 0; o < NO; o = o + 1) begin : g_rr
            // (at most one input VC is granted an output VC)
            reg          hit;
            reg [IW-1:0] next;
            integer r;
            always @* begin
                hit = 1'b0;
                next = {IW{1'b0}};
                for (r = 0; r < NV; r = r + 1)
                    if (grant[r] && {{(32-PW){1'b0}}, out[r*PW +: PW]} * VCS + {{(32-VW){1'b0}}, granted_vc[r*VW +: VW]} == o) begin
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
