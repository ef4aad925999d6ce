// The switch allocator, separable and input-first: routers/blocks/switch_allocator.cpp bit for bit.
// Each input port's arbiter picks one of its requesting virtual channels (priority, then round robin
// over VC numbers); each output's arbiter picks one of the inputs whose pick goes there (that
// request's priority, then round robin over input ports, the injection inputs counted from port `dim`:
// one, or one per link with the all-port network interface, `injections` of them).
// Output PORTS is the local port (delivery to the node). Up to ITERS iterations (`iters` of them are
// used): in each, the inputs and outputs still unmatched try again with their other requests. A
// grant moves both pointers; as a matched input or output takes no part in a later iteration, moving
// them at the cycle's end is the same as the C++ moving them at each grant. A fan-out request (`fan`:
// further outputs for the same flit, a crossbar that multicasts) asks each of its free outputs, and
// the input is matched by all it wins (`granted_outs`); every output it won moves its pointer.
module cc_ib_switch_allocator #(
    parameter integer PORTS = 8,
    parameter integer VCS = 4,
    parameter integer ITERS = 1,  // iterations built
    parameter integer OW = 4,     // bits of an output number (0..PORTS)
    parameter integer VW = 2,
    parameter integer IW = 5,     // bits of an input port's logical index, and of vcs
    parameter integer NI = PORTS + 1  // inputs built: the links', then the injection inputs
) (
    input  wire                          clk,
    input  wire                          rst,
    input  wire                          run,
    input  wire                          tst_freeze,  // test hook: the input pointers stick (a planted bug)
    input  wire [4:0]                    dim,
    input  wire [4:0]                    injections,  // the injection inputs used (1, or dim: all-port)
    input  wire [4:0]                    vcs,
    input  wire [3:0]                    iters,       // 1..ITERS
    input  wire [NI*VCS-1:0]             req,
    input  wire [NI*VCS*OW-1:0]          out,
    input  wire [NI*VCS*32-1:0]          pri,
    input  wire [NI*VCS*(PORTS+1)-1:0]   fan,        // per request, the further outputs of a fan-out (0: none)
    output wire [NI-1:0]                 grant,      // per input port
    output wire [NI*VW-1:0]              granted_vc,
    output wire [NI*(PORTS+1)-1:0]       granted_outs // every output it won (a bit each)
);
    localparam integer NO = PORTS + 1;  // outputs: the links', then the local port
    reg [IW-1:0] in_pointer [0:NI-1];
    reg [IW-1:0] out_pointer [0:NO-1];

    wire [VCS*IW-1:0] vc_index;
    wire [NI*IW-1:0]  in_index;
    wire [IW-1:0]     inputs = dim[IW-1:0] + injections[IW-1:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0]       vcs_wide = {27'd0, vcs};
    /* verilator lint_on UNUSEDSIGNAL */
    wire [IW-1:0]     vcs_n = vcs_wide[IW-1:0];  // (IW >= 5: vcs up to 16)

    genvar p, v, k;
    generate
        for (v = 0; v < VCS; v = v + 1) begin : g_vc_index
            assign vc_index[v*IW +: IW] = v;
        end
        for (p = 0; p < NI; p = p + 1) begin : g_in_index
            if (p >= PORTS) begin : g_injection
                localparam [31:0] J = p - PORTS;
                assign in_index[p*IW +: IW] = dim[IW-1:0] + J[IW-1:0];
            end else begin : g_link
                assign in_index[p*IW +: IW] = p;
            end
        end
        // Iteration k: the inputs matched and the outputs taken before it (done, busy) and after it,
        // and the grants so far (each input's VC and the outputs it won, from the iteration that granted it).
        for (k = 0; k < ITERS; k = k + 1) begin : g_iter
            wire           active = {28'd0, iters} > k;
            wire [NI-1:0] done;
            wire [NO-1:0] busy;
            wire [NI*VW-1:0] vc_before;
            wire [NI*NO-1:0] outs_before;
            if (k == 0) begin : g_first
                assign done = {NI{1'b0}};
                assign busy = {NO{1'b0}};
                assign vc_before = {NI*VW{1'b0}};
                assign outs_before = {NI*NO{1'b0}};
            end else begin : g_next
                assign done = g_iter[k-1].done_after;
                assign busy = g_iter[k-1].busy_after;
                assign vc_before = g_iter[k-1].vc_after;
                assign outs_before = g_iter[k-1].outs_after;
            end
            // Input stage: the requests of unmatched inputs to outputs not yet taken.
            wire [NI-1:0]    picked;
            wire [NI*32-1:0] pick;
            wire [NI*32-1:0] pick_pri;
            wire [NI*NO-1:0] pick_outs;  // the outputs the pick asks for (its own and its fan-out's)
            for (p = 0; p < NI; p = p + 1) begin : g_in
                wire [VCS-1:0] open;
                for (v = 0; v < VCS; v = v + 1) begin : g_open
                    wire [NO-1:0] outs = ({{(NO-1){1'b0}}, 1'b1} << out[(p*VCS + v)*OW +: OW]) | fan[(p*VCS + v)*NO +: NO];
                    assign open[v] = active && !done[p] && req[p*VCS + v] && (outs & ~busy) != {NO{1'b0}};
                end
                cc_ib_arbiter #(.N(VCS), .IW(IW)) u_arb (
                    .req(open), .pri(pri[p*VCS*32 +: VCS*32]), .index(vc_index), .pointer(in_pointer[p]),
                    .n(vcs_n), .valid(picked[p]), .winner(pick[p*32 +: 32]));
                wire [31:0] r = p * VCS + pick[p*32 +: 32];
                assign pick_pri[p*32 +: 32] = pri[r*32 +: 32];
                assign pick_outs[p*NO +: NO] = ({{(NO-1){1'b0}}, 1'b1} << out[r*OW +: OW]) | fan[r*NO +: NO];
            end
            // Output stage.
            wire [NO-1:0]    won;
            wire [NO*32-1:0] winner;
            for (p = 0; p < NO; p = p + 1) begin : g_out
                wire [NI-1:0] asks;
                genvar j;
                for (j = 0; j < NI; j = j + 1) begin : g_ask
                    assign asks[j] = picked[j] && pick_outs[j*NO + p] && !busy[p];
                end
                cc_ib_arbiter #(.N(NI), .IW(IW)) u_arb (
                    .req(asks), .pri(pick_pri), .index(in_index), .pointer(out_pointer[p]), .n(inputs),
                    .valid(won[p]), .winner(winner[p*32 +: 32]));
            end
            wire [NI-1:0]    granted;
            wire [NI*VW-1:0] vc_after;
            wire [NI*NO-1:0] outs_after;
            for (p = 0; p < NI; p = p + 1) begin : g_grant
                wire [NO-1:0] wins;  // the outputs whose arbiter chose this input
                genvar o;
                for (o = 0; o < NO; o = o + 1) begin : g_wins
                    assign wins[o] = picked[p] && pick_outs[p*NO + o] && won[o] && winner[o*32 +: 32] == p;
                end
                assign granted[p] = wins != {NO{1'b0}};
                assign vc_after[p*VW +: VW] = granted[p] ? pick[p*32 +: VW] : vc_before[p*VW +: VW];
                assign outs_after[p*NO +: NO] = granted[p] ? wins : outs_before[p*NO +: NO];
            end
            wire [NI-1:0] done_after = done | granted;
            /* verilator lint_off UNUSEDSIGNAL */  // (the last iteration's busy_after)
            wire [NO-1:0] busy_after = busy | won;
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    assign grant = g_iter[ITERS-1].done_after;
    assign granted_vc = g_iter[ITERS-1].vc_after;
    assign granted_outs = g_iter[ITERS-1].outs_after;

    integer r, q;
    always @(posedge clk) begin
        if (rst) begin
            for (r = 0; r < NI; r = r + 1) in_pointer[r] <= {IW{1'b0}};
            for (r = 0; r < NO; r = r + 1) out_pointer[r] <= {IW{1'b0}};
        end else if (run) begin
            for (r = 0; r < NI; r = r + 1)
                if (grant[r]) begin
                    if (!tst_freeze) in_pointer[r] <= {{(IW-VW){1'b0}}, granted_vc[r*VW +: VW]} + 1'b1 == vcs_n ?
                                     {IW{1'b0}} : {{(IW-VW){1'b0}}, granted_vc[r*VW +: VW]} + 1'b1;
                    for (q = 0; q < NO; q = q + 1)
                        if (granted_outs[r*NO + q])
                            out_pointer[q] <= in_index[r*IW +: IW] + 1'b1 == inputs ? {IW{1'b0}} : in_index[r*IW +: IW] + 1'b1;
                end
        end
    end
endmodule
