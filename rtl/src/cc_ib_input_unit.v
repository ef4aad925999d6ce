// An input port of the input-buffered router (routers/blocks/virtual_channel.h and the routing half of
// routers/cores/ib_router.cpp): per virtual channel a FIFO of flits and the state of the packet at its
// front. Within one edge, as the SystemC router: the flit on the link joins its VC; an idle VC with a
// packet at its front is routed (store-forward: once its tail is in) by its own control logic
// (cc_control_logic.v, the same as the ideal router's); the copy in progress asks the VC allocator and
// the switch allocator; a granted flit leaves, and is freed (a credit upstream) by the last copy. A VC
// whose packet ends as the next one's head is at its front routes that one at this edge too: its
// copies are read from the control logic at the next edge (the same decision: the logic is a function
// of the header).
// Copies go one after another (asynchronous replication) in the order the SystemC router sorts them:
// not-before cycle, then priority, then the logic's own order (SBT: rotated dimension; MNB: the child's
// address; TE: one copy); the local copy (delivery) last.
`include "cc_defs.vh"
module cc_ib_input_unit #(
    parameter integer PORTS = 8,
    parameter integer VCS = 4,
    parameter integer VW = 2,
    parameter integer DEPTH = 16,   // flits a VC's buffer holds (a power of two; vc_depth <= DEPTH)
    parameter integer AW = 4,       // log2(DEPTH)
    parameter integer FW = 3,       // bits of a flit's index in a packet (PF_MAX < 2^FW)
    parameter integer FLIT_W = 64,
    parameter integer PW = 3,       // bits of a network port number
    parameter integer OW = 4,       // bits of an output number (PORTS: the local port)
    parameter integer INJECTION = 0,// the injection port: the node's own packets (never delivered back)
    parameter integer PORT = 0      // this input's port (PORTS: the injection port)
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     run,
    input  wire [31:0]              cycle,
    input  wire [15:0]              node_id,
    input  wire [4:0]               dim,
    input  wire [6:0]               packet_flits,
    input  wire [1:0]               algo,
    input  wire [3:0]               sbt_rot,
    input  wire [2:0]               radix_bits,
    input  wire                     torus,
    input  wire [1:0]               datelines,
    input  wire [3:0]               vcs,
    input  wire [3:0]               route_classes, // a collective's route classes (0 or 1: one class)
    input  wire [VCS*3-1:0]         vc_class,      // each VC's route class (the router's table)
    input  wire                     tst_no_turn,   // test hook: a copy never goes up a class (a planted bug)
    input  wire [1:0]               switching,
    input  wire [7:0]               router_delay,
    input  wire [3:0]               ejection_vcs,  // the local port's VCs a packet to the node is allocated (0: none)
    // the link (or the network interface)
    input  wire                     push,
    input  wire [VW-1:0]            push_vc,
    input  wire [FLIT_W-1:0]        push_flit,
    input  wire [PORTS:0]           out_free,     // the outputs (the local port last) that may carry a flit at this edge
    output wire [VCS*(AW+1)-1:0]    counts,       // flits each VC holds (before this edge)
    output wire [VCS*(AW+1)-1:0]    peaks,        // observation: flits each VC held at the last edge once its flit was in
    // the output ports' state at this edge (owned: the local port's VCs last)
    input  wire [(PORTS+1)*VCS-1:0] owned,
    input  wire [PORTS*VCS*9-1:0]   credits,
    // VC allocation
    output wire [VCS-1:0]           va_req,
    output wire [VCS*OW-1:0]        va_out,
    output wire [VCS*VCS-1:0]       va_candidates,
    output wire [VCS*32-1:0]        va_pri,
    input  wire [VCS-1:0]           va_grant,
    input  wire [VCS*VW-1:0]        va_vc,
    // switch allocation and traversal
    output wire [VCS-1:0]           sa_req,
    output wire [VCS*OW-1:0]        sa_out,
    output wire [VCS*32-1:0]        sa_pri,
    input  wire                     sa_grant,
    input  wire [VW-1:0]            sa_vc,
    output wire [FLIT_W-1:0]        tr_flit,
    output wire [VW-1:0]            tr_out_vc,
    output wire                     tr_tail,
    output wire [VCS-1:0]           freed_now,    // the VC whose flit was freed at this edge (a credit upstream)
    output wire [VCS-1:0]           dbg_routed,
    output wire [VCS-1:0]           dbg_waiting,  // a routed packet waits for its router delay or not-before cycle
    output wire [VCS*96-1:0]        dbg_state,    // per VC, for stuck-state reports (see cc_ib_router.v)
    // the ROM ports of the VCs' control logics
    output wire [VCS*32-1:0]        mnb_addr,
    input  wire [VCS*PORTS*16-1:0]  mnb_row,
    output wire [VCS*PORTS-1:0]     te_addr,
    input  wire [VCS*16-1:0]        te_position
);
    localparam [1:0] STORE_FORWARD = 2'd0, WORMHOLE = 2'd2;
    localparam integer HF = FLIT_W >= 64 ? 1 : 2;  // a header's flits: two of 32 bits, the low half first
    localparam integer KIND_BIT = 49 - 32 * (HF - 1);  // the header's kind bit in its last flit
    wire [31:0] lead = router_delay != 8'd0 ? 32'd1 : 32'd0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] dim_ones = (32'd1 << dim) - 32'd1;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [PORTS-1:0] dim_mask = dim_ones[PORTS-1:0];
    function [6:0] length_of(input token, input [6:0] data_flits);  // a token is its header
        length_of = token ? HF[6:0] : data_flits;
    endfunction

    wire [VCS*FLIT_W-1:0] tr_flits;
    wire [VCS*VW-1:0]     out_vcs;
    wire [VCS-1:0]        tails;
    genvar c;
    generate
        for (c = 0; c < VCS; c = c + 1) begin : g_vc
            reg [FLIT_W-1:0] ring [0:DEPTH-1];
            reg [AW-1:0]  head;
            reg [AW:0]    count;
            reg           routed, left_valid, out_vc_valid;
            reg [PORTS:0] left;          // copies still to send; bit PORTS: the local copy
            reg [63:0]    hdr;
            reg [6:0]     len;
            reg [FW-1:0]  freed, rd;
            reg [VW-1:0]  out_vc;
            reg [31:0]    eligible_at, switch_from;
            assign counts[c*(AW+1) +: AW+1] = count;
            reg [AW:0] peak;
            assign peaks[c*(AW+1) +: AW+1] = peak;
            assign dbg_routed[c] = routed;

            wire pushing = push && {{(32-VW){1'b0}}, push_vc} == c;
            wire [AW:0] count1 = count + {{AW{1'b0}}, pushing};
            // Flits counted from the buffer's front (at index count: the one arriving now). The front
            // packet's header: the low 64 bits of its first flit, or of its first two (32-bit flits).
            /* verilator lint_off UNUSEDSIGNAL */
            wire [FLIT_W-1:0] front = count == {(AW+1){1'b0}} ? push_flit : ring[head];
            wire [FLIT_W-1:0] second = count <= {{AW{1'b0}}, 1'b1} ? push_flit : ring[head + 1'b1];
            wire [2*FLIT_W-1:0] front_pair = HF == 1 ? {{FLIT_W{1'b0}}, front} : {second, front};
            /* verilator lint_on UNUSEDSIGNAL */
            wire [63:0] front_header = front_pair[63:0];
            wire fixed = routed && left_valid;
            wire [63:0] header = fixed ? hdr : front_header;
            wire [6:0] len_now = fixed ? len : length_of(`CC_KIND(front_header), packet_flits);
            wire route_now = !routed && {{(31-AW){1'b0}}, count1} >= HF &&
                             (switching != STORE_FORWARD || {{(31-AW){1'b0}}, count1} >= {25'd0, len_now});
            wire routed_now = routed || route_now;
            wire [31:0] eligible_now = route_now ? cycle + {24'd0, router_delay} : eligible_at;

            // The control logic's decision for the header.
            wire deliver;
            wire [PORTS-1:0] fwd;
            wire [PORTS*32-1:0] nb, pr;
            cc_control_logic #(.D_MAX(PORTS)) u_ctl (
                .node_id(node_id), .dim(dim), .packet_flits(packet_flits), .algo(algo), .sbt_rot(sbt_rot), .radix_bits(radix_bits), .torus(torus),
                .own(INJECTION != 0), .hdr(header), .deliver(deliver), .fwd(fwd), .not_before(nb), .prio(pr),
                .mnb_addr(mnb_addr[c*32 +: 32]), .row(mnb_row[c*PORTS*16 +: PORTS*16]),
                .te_addr(te_addr[c*PORTS +: PORTS]), .own_position(te_position[c*16 +: 16]));
            wire [PORTS:0] left_now = fixed ? left : {deliver && INJECTION == 0, fwd & dim_mask};

            // The copy in progress: the smallest (not-before, priority, order) among the link copies.
            wire [15:0] x_origin = (node_id ^ `CC_ORIGIN(header)) & ((16'd1 << dim) - 16'd1);
            reg cur_link;
            reg [PW-1:0] cur;
            reg [31:0] cur_nb, cur_pri, cur_rank, rank;
            integer q;
            always @* begin
                cur_link = 1'b0;
                cur = {PW{1'b0}};
                cur_nb = 32'd0;
                cur_pri = 32'd0;
                cur_rank = 32'd0;
                for (q = 0; q < PORTS; q = q + 1) begin
                    case (algo)
                        `CC_ALGO_SBT: rank = q >= {28'd0, sbt_rot} ? q - {28'd0, sbt_rot} : q + {27'd0, dim} - {28'd0, sbt_rot};
                        `CC_ALGO_MNB: rank = {16'd0, x_origin ^ (16'd1 << q)};
                        default: rank = q;
                    endcase
                    if (left_now[q] && (!cur_link || nb[q*32 +: 32] < cur_nb ||
                        (nb[q*32 +: 32] == cur_nb && (pr[q*32 +: 32] < cur_pri ||
                                                       (pr[q*32 +: 32] == cur_pri && rank < cur_rank))))) begin
                        cur_link = 1'b1;
                        cur = q[PW-1:0];
                        cur_nb = nb[q*32 +: 32];
                        cur_pri = pr[q*32 +: 32];
                        cur_rank = rank;
                    end
                end
            end
            wire cur_local = !cur_link && left_now[PORTS];
            wire [OW-1:0] sa_target = cur_local ? PORTS[OW-1:0] : {{(OW-PW){1'b0}}, cur};
            assign dbg_waiting[c] = routed && (eligible_at >= cycle || (cur_link && cur_nb >= cycle));
            wire last = (left_now & (left_now - 1'b1)) == {(PORTS+1){1'b0}};
            wire [PORTS:0] cur_bit = cur_link ? {{PORTS{1'b0}}, 1'b1} << cur : {1'b1, {PORTS{1'b0}}};

            // Dateline classes on the torus (InputBufferedRouter::vc_class): with datelines and two VCs or
            // more, a packet starts each ring in the lower half of the VCs and takes the upper half with the
            // ring's wraparound link (wrap), or takes the upper half for a whole ring whose wraparound link
            // its route will cross (partition; a broadcast copy as under wrap); a copy going on along the
            // ring it came in on, in an upper VC, stays in the upper half.
            wire [31:0] cur_dim = {{(32-PW){1'b0}}, cur} >> 1;
            wire [15:0] digit_mask = (16'd1 << radix_bits) - 16'd1;
            wire [15:0] own_digit = (node_id >> ({29'd0, radix_bits} * cur_dim)) & digit_mask;
            wire [15:0] dest_digit = (`CC_DEST(header) >> ({29'd0, radix_bits} * cur_dim)) & digit_mask;
            wire continuing = INJECTION == 0 && PORT / 2 == cur_dim;
            wire crosses = cur[0] ? own_digit == digit_mask : own_digit == 16'd0;  // the wraparound link
            wire wraps_ahead = cur[0] ? dest_digit < own_digit : dest_digit > own_digit;
            wire upper_class = datelines == 2'd2 && !header[32] ? !continuing && wraps_ahead : crosses;
            wire classes = torus && datelines != 2'd0 && vcs >= 4'd2;
            wire [3:0] half = vcs >> 1;

            // Route classes (routers/logic/vc_classes.h, next_turn_class): a copy from a link goes up a
            // class when its route turns down the port order (it leaves by a port below the one it
            // travelled along, or back by the link it came in on), up to the last class; the node's own
            // copies start in class 0. It takes the output VCs of its class. (Not combined with dateline
            // classes: on the array and the torus the Verilog router runs dimension-order traffic only,
            // which takes one class, and the lockstep bench draws classes on the cube only.)
            wire [31:0] cur_port = {{(32-PW){1'b0}}, cur};
            wire [31:0] along = radix_bits != 3'd0 ? PORT ^ 1 : PORT;  // (a mesh's link arrives on the opposite port)
            wire by_class = INJECTION == 0 && route_classes > 4'd1;
            wire [3:0] up = {1'b0, vc_class[c*3 +: 3]} + {3'd0, !tst_no_turn && (cur_port < along || cur_port == PORT)};
            wire [3:0] out_class = !by_class ? 4'd0 : up >= route_classes ? route_classes - 4'd1 : up;

            // VC allocation: an output VC free, and under store-forward or cut-through with room for the
            // packet; to the node (with ejection VCs) one of the first ejection_vcs of the local port.
            wire [31:0] base = {{(32-PW){1'b0}}, cur} * VCS;
            genvar w;
            for (w = 0; w < VCS; w = w + 1) begin : g_cand
                wire upper = w >= half;
                wire in_class = !classes || (continuing && c >= half ? upper : upper_class == upper);
                wire in_route_class = route_classes <= 4'd1 || {1'b0, vc_class[w*3 +: 3]} == out_class;
                assign va_candidates[c*VCS + w] = cur_local ? w < ejection_vcs && !owned[PORTS*VCS + w] :
                    w < vcs && in_class && in_route_class && !owned[base + w] &&
                    (switching == WORMHOLE || credits[(base + w)*9 +: 9] >= {2'd0, len_now});
            end
            wire local_vcs = cur_local && ejection_vcs != 4'd0;
            assign va_req[c] = routed_now && !out_vc_valid && eligible_now <= cycle + lead && (cur_link || local_vcs) &&
                               cur_nb <= cycle + lead && va_candidates[c*VCS +: VCS] != {VCS{1'b0}};
            assign va_out[c*OW +: OW] = sa_target;
            assign va_pri[c*32 +: 32] = cur_pri;
            wire out_vc_valid_now = out_vc_valid || va_grant[c];
            wire [VW-1:0] out_vc_now = va_grant[c] ? va_vc[c*VW +: VW] : out_vc;
            wire [31:0] switch_from_now = va_grant[c] ? cycle + lead : switch_from;

            // Switch allocation: the next flit is here, its output free (link period), and for a link a VC and a credit.
            wire [FW-1:0] rel = rd - freed;
            // Observation: the front packet's header, whether it is routed, has its output VC, goes to the
            // node, has the copy's next flit here; the copy's output, output VC and next flit.
            assign dbg_state[c*96 +: 96] = {4'd0, {(8-FW){1'b0}}, rd, {(8-VW){1'b0}}, out_vc, {(8-PW){1'b0}}, cur,
                                            {{(31-AW){1'b0}}, count} > {{(32-FW){1'b0}}, rel}, cur_local, out_vc_valid,
                                            routed, header};
            assign sa_req[c] = routed_now && eligible_now <= cycle && {{(32-FW){1'b0}}, rel} < {{(31-AW){1'b0}}, count1} && cur_nb <= cycle &&
                               out_free[sa_target] &&
                               (cur_local ? !local_vcs || (out_vc_valid_now && switch_from_now <= cycle) :
                                            out_vc_valid_now && switch_from_now <= cycle &&
                                            credits[(base + {{(32-VW){1'b0}}, out_vc_now})*9 +: 9] != 9'd0);
            assign sa_out[c*OW +: OW] = sa_target;
            assign sa_pri[c*32 +: 32] = cur_local ? 32'd0 : cur_pri;

            // Traversal.
            wire going = sa_grant && {{(32-VW){1'b0}}, sa_vc} == c;
            wire tail = {{(32-FW){1'b0}}, rd} + 32'd1 == {25'd0, len_now};
            wire pop = going && last;
            wire [31:0] rel32 = {{(32-FW){1'b0}}, rel};
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] at = {{(32-AW){1'b0}}, head} + rel32;
            /* verilator lint_on UNUSEDSIGNAL */
            assign tr_flits[c*FLIT_W +: FLIT_W] = rel32 == {{(31-AW){1'b0}}, count} ? push_flit : ring[at[AW-1:0]];
            assign out_vcs[c*VW +: VW] = out_vc_now;
            assign tails[c] = tail;
            assign freed_now[c] = pop && INJECTION == 0;
            wire [AW:0] count_next = count1 - {{AW{1'b0}}, pop};
            // After a pop: the next packet's kind, in its header's last flit (here or arriving now).
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] kind_at = {{(32-AW){1'b0}}, head} + HF;
            wire [FLIT_W-1:0] kind_flit = {{(31-AW){1'b0}}, count} == HF ? push_flit : ring[kind_at[AW-1:0]];
            /* verilator lint_on UNUSEDSIGNAL */
            wire next_token = kind_flit[KIND_BIT];
            wire next_routes = {{(31-AW){1'b0}}, count_next} >= HF && (switching != STORE_FORWARD ||
                               {{(31-AW){1'b0}}, count_next} >= {25'd0, length_of(next_token, packet_flits)});

            always @(posedge clk) begin
                if (rst) begin
                    head <= {AW{1'b0}};
                    count <= {(AW+1){1'b0}};
                    peak <= {(AW+1){1'b0}};
                    routed <= 1'b0;
                    left_valid <= 1'b0;
                    left <= {(PORTS+1){1'b0}};
                    hdr <= 64'd0;
                    len <= 7'd1;
                    freed <= {FW{1'b0}};
                    rd <= {FW{1'b0}};
                    out_vc_valid <= 1'b0;
                    out_vc <= {VW{1'b0}};
                    eligible_at <= 32'd0;
                    switch_from <= 32'd0;
                end else if (run) begin
                    if (pushing) ring[head + count[AW-1:0]] <= push_flit;
                    peak <= count1;
                    count <= count_next;
                    head <= head + {{(AW-1){1'b0}}, pop};
                    routed <= routed_now;
                    if (routed_now && !fixed) begin  // routed at this edge, or at the last one after a packet ended
                        hdr <= front_header;
                        len <= len_now;
                        left <= left_now;
                        left_valid <= 1'b1;
                    end
                    eligible_at <= eligible_now;
                    out_vc_valid <= out_vc_valid_now;
                    out_vc <= out_vc_now;
                    switch_from <= switch_from_now;
                    if (going) begin
                        freed <= freed + {{(FW-1){1'b0}}, pop};
                        rd <= rd + 1'b1;
                        if (tail) begin
                            rd <= {FW{1'b0}};
                            out_vc_valid <= 1'b0;
                            if (last) begin  // the packet is done; the next one is routed if it may be
                                freed <= {FW{1'b0}};
                                routed <= next_routes;
                                left_valid <= 1'b0;
                                eligible_at <= cycle + {24'd0, router_delay};
                            end else begin
                                left <= left_now & ~cur_bit;
                            end
                        end
                    end
                end
            end
        end
    endgenerate

    assign tr_flit = tr_flits[sa_vc*FLIT_W +: FLIT_W];
    assign tr_out_vc = out_vcs[sa_vc*VW +: VW];
    assign tr_tail = tails[sa_vc];
endmodule
