// An input port of the input-buffered router (routers/blocks/virtual_channel.h and the routing half of
// routers/cores/ib_router.cpp): per virtual channel a FIFO of flits and the state of the packet at its
// front. Within one edge, as the SystemC router: the flit on the link joins its VC; an idle VC with a
// packet at its front is routed (store-forward: once its tail is in) by its own control logic
// (cc_control_logic.v, the same as the ideal router's); one copy asks the VC allocator and one the
// switch allocator; a granted flit leaves, and is freed (a credit upstream) by the last copy to send
// it. A VC whose packet ends as the next one's head is at its front routes that one at this edge too:
// its copies are read from the control logic at the next edge (the same decision: the logic is a
// function of the header).
// Copies are ordered as the SystemC router sorts them: not-before cycle, then priority, then the
// logic's own order (SBT: rotated dimension; MNB: the child's address; TE: one copy); the local copy
// (delivery) last. Serial replication (`per_branch` 0): they go one after another, the copy in
// progress the first still to send. Per-branch (`per_branch` 1, with PER_BRANCH built): each copy
// keeps its own output VC and next flit, and at each edge the first copy in key order that may asks
// each allocator, so a copy waiting for its output does not hold the others back; a flit is freed
// once every copy has sent it (routers/blocks/virtual_channel.h, VirtualChannel::branch_sent).
// Fan-out (`fan_out` with per-branch, FAN_OUT built; InputBufferedRouter::fan_out_ports): the copy
// that asks the switch allocator names with it every other copy that may take the same flit now
// (`sa_fan`); the flit, read once, goes to every output the input won (`sa_granted_outs`), and each of
// those copies moves on.
// Forwarding through the node (`through_node`, with NODE_FORWARDING built; InputBufferedRouter::consume):
// a link's packet asks neither allocator; once its tail is in (at the edge it arrives) it leaves its VC
// whole, every flit freed at once, for the node's memory (thru_*), which delivers it and injects it
// again. At the injection port such a packet carries a transit bit beside its flits, and its control
// logic routes it as a link's packet (the decision is a function of the header), not as the node's own.
// The all-port network interface (`all_port`, with ALL_PORT built in the router): an injection input
// per link, each fed with the copies for its link (INJ_LINK) alone; its control logic keeps the
// decision's copy to that link (the node split the packet by the same decision).
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
    parameter integer PORT = 0,     // this input's port (PORTS: the injection port)
    parameter integer PER_BRANCH = 1,// 1: per-branch replication built (a slot of state per copy); 0: serial only
    parameter integer PF_MAX = 4,   // largest packet, in flits
    parameter integer NODE_FORWARDING = 1, // 1: forwarding through the node built; 0: in the router only
    parameter integer FAN_OUT = 1,  // 1: fan-out replication built (a crossbar that multicasts); 0: not
    parameter integer INJ_LINK = 0, // (an injection input) the link it injects for with the all-port network interface
    parameter integer SPLITS = 1,   // 1: the all-port interface built (a packet through the node gives its copies' links and keys)
    parameter integer MSG_CLASSES = 1 // 1: two message classes built (msg_on); 0: one
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
    input  wire [4:0]               vcs,
    input  wire [4:0]               route_classes, // a collective's route classes (0 or 1: one class)
    input  wire [VCS*4-1:0]         vc_class,      // each VC's route class within its message class (the router's table)
    input  wire                     msg_on,        // two message classes: tokens on VCs data_vcs.., data below
    input  wire [4:0]               data_vcs,      // (the first token VC)
    input  wire                     tst_class_mix, // test hook: a token may take a data VC (a planted bug)
    input  wire                     tst_no_turn,   // test hook: a copy never goes up a class (a planted bug)
    input  wire                     tst_free_early,// test hook: per-branch, any copy frees the flit it sends (a planted bug)
    input  wire                     tst_short_credit,// test hook: a packet leaving whole for the node frees a credit too few (a planted bug)
    input  wire [1:0]               switching,
    input  wire [7:0]               router_delay,
    input  wire [4:0]               ejection_vcs,  // the local port's VCs a packet to the node is allocated (0: none)
    input  wire                     per_branch,    // replication: 0 serial, 1 per-branch (with PER_BRANCH built)
    input  wire                     fan_out,       // with per_branch: fan-out, a crossbar that multicasts (FAN_OUT built)
    input  wire                     tst_fan_stale, // test hook: fan-out, only the asking copy moves on (a planted bug)
    input  wire                     through_node,  // forwarding: 0 in the router, 1 through the node (NODE_FORWARDING built)
    input  wire                     all_port,      // (an injection input) the all-port network interface: its link's copies only
    // the link (or the network interface)
    input  wire                     push,
    input  wire [VW-1:0]            push_vc,
    input  wire [FLIT_W-1:0]        push_flit,
    input  wire                     push_transit, // (the injection port) the flit's packet was forwarded through the node
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
    output wire [VCS*(PORTS+1)-1:0] sa_fan,       // per VC, the further outputs of its fan-out (0: none)
    input  wire                     sa_grant,
    input  wire [VW-1:0]            sa_vc,
    input  wire [PORTS:0]           sa_granted_outs, // the outputs the granted VC won
    output wire [FLIT_W-1:0]        tr_flit,
    output wire [(PORTS+1)*VW-1:0]  tr_out_vc,     // per output, the output VC of the granted VC's copy there
    output wire                     tr_tail,
    output wire [VCS*8-1:0]         freed_now,    // per VC, the flits freed at this edge (credits upstream)
    // through the node: per VC, its packet left whole for the node's memory at this edge, whether the
    // node delivers it and whether it goes on (a copy to a link), and its flits
    output wire [VCS-1:0]           thru_now,
    output wire [VCS-1:0]           thru_deliver,
    output wire [VCS-1:0]           thru_forwards,
    output wire [VCS*PF_MAX*FLIT_W-1:0] thru_flits,
    output wire [VCS*PORTS-1:0]     thru_links,    // ... the links its copies go to (the all-port interface queues each)
    output wire [VCS*PORTS*32-1:0]  thru_nb,       // ... and their keys: not-before cycle
    output wire [VCS*PORTS*32-1:0]  thru_pr,       // ... and priority
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
    localparam integer COPIES = PER_BRANCH != 0 ? PORTS + 1 : 1;  // slots of copy state per VC
    wire per_branch_on = PER_BRANCH != 0 && per_branch;
    wire fan_on = FAN_OUT != 0 && per_branch_on && fan_out;
    wire local_vcs = ejection_vcs != 5'd0;
    wire thru_mode = NODE_FORWARDING != 0 && INJECTION == 0 && through_node;
    // The first copy in key order (not-before cycle, priority, the logic's order) among `mask`, the
    // local copy (bit PORTS) last: {found, its index}.
    function [OW:0] first_in_order(input [PORTS:0] mask, input [PORTS*32-1:0] nbs, input [PORTS*32-1:0] pris,
                                   input [PORTS*32-1:0] order);
        integer j;
        reg found;
        reg [OW-1:0] at;
        reg [31:0] bn, bp, bo;
        begin
            found = 1'b0;
            at = PORTS[OW-1:0];
            bn = 32'd0;
            bp = 32'd0;
            bo = 32'd0;
            for (j = 0; j < PORTS; j = j + 1)
                if (mask[j] && (!found || nbs[j*32 +: 32] < bn || (nbs[j*32 +: 32] == bn && (pris[j*32 +: 32] < bp ||
                                (pris[j*32 +: 32] == bp && order[j*32 +: 32] < bo))))) begin
                    found = 1'b1;
                    at = j[OW-1:0];
                    bn = nbs[j*32 +: 32];
                    bp = pris[j*32 +: 32];
                    bo = order[j*32 +: 32];
                end
            if (!found && mask[PORTS]) found = 1'b1;
            first_in_order = {found, at};
        end
    endfunction

    wire [VCS*FLIT_W-1:0] tr_flits;
    wire [VCS*(PORTS+1)*VW-1:0] out_vcs;
    wire [VCS-1:0]        tails;
    genvar c;
    generate
        for (c = 0; c < VCS; c = c + 1) begin : g_vc
            reg [FLIT_W-1:0] ring [0:DEPTH-1];
            reg              ring_transit [0:DEPTH-1];  // (the injection port) its packet came through the node
            reg              hdr_transit;
            reg [AW-1:0]  head;
            reg [AW:0]    count;
            reg           routed, left_valid;
            reg [PORTS:0] left;          // copies still to send; bit PORTS: the local copy
            reg [63:0]    hdr;
            reg [6:0]     len;
            reg [FW-1:0]  freed;         // the front packet's flits freed (by its slowest copy)
            reg [31:0]    eligible_at;
            // Per copy slot (g_copy): its next flit, whether it holds an output VC, and which.
            reg [COPIES*FW-1:0] rd;
            reg [COPIES-1:0]    out_vc_valid;
            reg [COPIES*VW-1:0] out_vc;
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
            wire front_transit = INJECTION != 0 && NODE_FORWARDING != 0 &&
                                 (count == {(AW+1){1'b0}} ? push_transit : ring_transit[head]);
            wire transit = fixed ? hdr_transit : front_transit;
            wire [6:0] len_now = fixed ? len : length_of(`CC_KIND(front_header), packet_flits);
            wire route_now = !routed && {{(31-AW){1'b0}}, count1} >= HF &&
                             (switching != STORE_FORWARD || {{(31-AW){1'b0}}, count1} >= {25'd0, len_now});
            wire routed_now = routed || route_now;
            wire [31:0] eligible_now = route_now ? cycle + {24'd0, router_delay} : eligible_at;
            // Through the node: the packet leaves whole once its tail is in (at the edge it arrives:
            // one VC of a link at most), its router delay not waited for.
            wire consume = thru_mode && routed_now && {{(31-AW){1'b0}}, count1} >= {25'd0, len_now};
            assign thru_now[c] = consume;
            genvar f;
            for (f = 0; f < PF_MAX; f = f + 1) begin : g_thru_flit
                /* verilator lint_off UNUSEDSIGNAL */
                wire [31:0] at_f = {{(32-AW){1'b0}}, head} + f;
                /* verilator lint_on UNUSEDSIGNAL */
                assign thru_flits[(c*PF_MAX + f)*FLIT_W +: FLIT_W] = NODE_FORWARDING == 0 || INJECTION != 0 ? {FLIT_W{1'b0}} :
                    {{(31-AW){1'b0}}, count} == f ? push_flit : ring[at_f[AW-1:0]];
            end

            // The control logic's decision for the header.
            wire deliver;
            wire [PORTS-1:0] fwd;
            wire [PORTS*32-1:0] nb, pr;
            cc_control_logic #(.D_MAX(PORTS)) u_ctl (
                .node_id(node_id), .dim(dim), .packet_flits(packet_flits), .algo(algo), .sbt_rot(sbt_rot), .radix_bits(radix_bits), .torus(torus),
                .own(INJECTION != 0 && !transit), .hdr(header), .deliver(deliver), .fwd(fwd), .not_before(nb), .prio(pr),
                .mnb_addr(mnb_addr[c*32 +: 32]), .row(mnb_row[c*PORTS*16 +: PORTS*16]),
                .te_addr(te_addr[c*PORTS +: PORTS]), .own_position(te_position[c*16 +: 16]));
            wire [PORTS-1:0] link_mask = INJECTION != 0 && all_port ? {{(PORTS-1){1'b0}}, 1'b1} << INJ_LINK : dim_mask;
            wire [PORTS:0] left_now = fixed ? left : {deliver && INJECTION == 0, fwd & link_mask};
            assign thru_deliver[c] = thru_mode && left_now[PORTS];
            assign thru_forwards[c] = thru_mode && left_now[PORTS-1:0] != {PORTS{1'b0}};
            wire splits = SPLITS != 0 && thru_mode;
            assign thru_links[c*PORTS +: PORTS] = splits ? left_now[PORTS-1:0] : {PORTS{1'b0}};
            assign thru_nb[c*PORTS*32 +: PORTS*32] = splits ? nb : {(PORTS*32){1'b0}};
            assign thru_pr[c*PORTS*32 +: PORTS*32] = splits ? pr : {(PORTS*32){1'b0}};

            // The copies' keys: not-before cycle, priority, then the logic's own order (SBT: rotated
            // dimension; MNB: the child's address; TE: one copy); the local copy last, with key 0.
            wire [15:0] x_origin = (node_id ^ `CC_ORIGIN(header)) & ((16'd1 << dim) - 16'd1);
            reg [PORTS*32-1:0] ranks;
            integer q;
            always @* begin
                for (q = 0; q < PORTS; q = q + 1)
                    case (algo)
                        `CC_ALGO_SBT: ranks[q*32 +: 32] = q >= {28'd0, sbt_rot} ? q - {28'd0, sbt_rot} : q + {27'd0, dim} - {28'd0, sbt_rot};
                        `CC_ALGO_MNB: ranks[q*32 +: 32] = {16'd0, x_origin ^ (16'd1 << q)};
                        default: ranks[q*32 +: 32] = q;
                    endcase
            end
            wire [(PORTS+1)*32-1:0] nb_all = {32'd0, nb}, pr_all = {32'd0, pr};

            // The copy in progress (serial): the first still to send, in key order.
            wire [OW:0] cur_pick = first_in_order(left_now, nb, pr, ranks);
            wire [OW-1:0] cur_at = cur_pick[OW-1:0];
            wire cur_local = cur_at == PORTS[OW-1:0];
            wire cur_link = cur_pick[OW] && !cur_local;
            wire [31:0] cur_nb = nb_all[cur_at*32 +: 32];
            assign dbg_waiting[c] = routed && (eligible_at >= cycle || (cur_link && cur_nb >= cycle));
            wire last = (left_now & (left_now - 1'b1)) == {(PORTS+1){1'b0}};

            // Each copy's state, and what it may ask for at this edge. Copy k (an output port; PORTS: the
            // node) keeps its output VC and its next flit in slot k, or serially all in slot 0.
            wire [(PORTS+1)*VCS-1:0] cand;     // the output VCs it may be allocated
            wire [PORTS:0] ask_ok;             // it may ask the VC allocator
            wire [PORTS:0] may;                // it may ask the switch allocator
            wire [PORTS:0] lacks;              // it waits for an output VC or a credit (stuck-state reports)
            wire [(PORTS+1)*VW-1:0] vc_now;    // its output VC at this edge
            wire [(PORTS+1)*FW-1:0] rd_of;     // its next flit
            wire [PORTS:0] ahead;              // it has sent a flit not yet freed (per-branch)
            wire [OW:0] va_pick;
            wire [31:0] along = radix_bits != 3'd0 ? PORT ^ 1 : PORT;  // (a mesh's link arrives on the opposite port)
            wire by_class = INJECTION == 0 && route_classes > 5'd1;
            // The packet's message class's VCs, [m_first, m_end) (routers/logic/vc_classes.h,
            // message_class_window); the dateline halves split them (the upper from m_half).
            wire two = MSG_CLASSES != 0 && msg_on;
            wire token = two && `CC_KIND(header);
            wire [4:0] m_first = token && !tst_class_mix ? data_vcs : 5'd0;
            wire [4:0] m_end = two && !token ? data_vcs : vcs;
            wire [4:0] m_half = m_first + ((m_end - m_first) >> 1);
            wire classes = torus && datelines != 2'd0 && (two ? vcs >> 1 : vcs) >= 5'd2;
            wire [15:0] digit_mask = (16'd1 << radix_bits) - 16'd1;
            genvar k, w;
            for (k = 0; k <= PORTS; k = k + 1) begin : g_copy
                localparam integer S = PER_BRANCH != 0 ? k : 0;
                wire granted = va_grant[c] && va_pick[OW-1:0] == k;
                wire held_now = out_vc_valid[S] || granted;
                wire switch_ok = held_now && (out_vc_valid[S] || lead == 32'd0);  // (a VC granted with a router delay: next edge)
                assign vc_now[k*VW +: VW] = granted ? va_vc[c*VW +: VW] : out_vc[S*VW +: VW];
                assign rd_of[k*FW +: FW] = rd[S*FW +: FW];
                wire [FW-1:0] rel = rd[S*FW +: FW] - freed;
                wire here = {{(32-FW){1'b0}}, rel} < {{(31-AW){1'b0}}, count1};
                assign ahead[k] = !left_now[k] || rd[S*FW +: FW] != freed;
                if (k < PORTS) begin : g_link
                    // Dateline classes on the torus (InputBufferedRouter::vc_class): with datelines and two
                    // VCs or more, a packet starts each ring in the lower half of the VCs and takes the upper
                    // half with the ring's wraparound link (wrap), or takes the upper half for a whole ring
                    // whose wraparound link its route will cross (partition; a broadcast copy as under
                    // wrap); a copy going on along the ring it came in on, in an upper VC, stays in the
                    // upper half.
                    wire [31:0] k_dim = k / 2;
                    wire [15:0] own_digit = (node_id >> ({29'd0, radix_bits} * k_dim)) & digit_mask;
                    wire [15:0] dest_digit = (`CC_DEST(header) >> ({29'd0, radix_bits} * k_dim)) & digit_mask;
                    wire continuing = INJECTION == 0 && PORT / 2 == k / 2;
                    wire crosses = k % 2 == 1 ? own_digit == digit_mask : own_digit == 16'd0;  // the wraparound link
                    wire wraps_ahead = k % 2 == 1 ? dest_digit < own_digit : dest_digit > own_digit;
                    wire upper_class = datelines == 2'd2 && !header[32] ? !continuing && wraps_ahead : crosses;
                    // Route classes (routers/logic/vc_classes.h, next_turn_class): a copy from a link goes up
                    // a class when its route turns down the port order (it leaves by a port below the one it
                    // travelled along, or back by the link it came in on), up to the last class; the node's
                    // own copies start in class 0. It takes the output VCs of its class. (Not combined with
                    // dateline classes: on the array and the torus the Verilog router runs dimension-order
                    // traffic only, which takes one class, and the lockstep bench draws classes on the cube
                    // only.)
                    wire [4:0] up = {1'b0, vc_class[c*4 +: 4]} + {4'd0, !tst_no_turn && (k < along || k == PORT)};
                    wire [4:0] out_class = !by_class ? 5'd0 : up >= route_classes ? route_classes - 5'd1 : up;
                    // VC allocation: an output VC free, and under store-forward or cut-through with room
                    // for the packet.
                    for (w = 0; w < VCS; w = w + 1) begin : g_cand
                        wire upper = w >= m_half;
                        wire in_class = !classes || (continuing && c >= m_half ? upper : upper_class == upper);
                        wire in_route_class = route_classes <= 5'd1 || {1'b0, vc_class[w*4 +: 4]} == out_class;
                        assign cand[k*VCS + w] = w >= m_first && w < m_end && in_class && in_route_class && !owned[k*VCS + w] &&
                            (switching == WORMHOLE || credits[(k*VCS + w)*9 +: 9] >= {2'd0, len_now});
                    end
                    wire [8:0] credit = credits[(k*VCS + {{(32-VW){1'b0}}, vc_now[k*VW +: VW]})*9 +: 9];
                    assign ask_ok[k] = left_now[k] && !out_vc_valid[S] && nb[k*32 +: 32] <= cycle + lead && cand[k*VCS +: VCS] != {VCS{1'b0}};
                    // Switch allocation: the next flit here, the output free (link period), a VC and a credit.
                    assign may[k] = left_now[k] && here && nb[k*32 +: 32] <= cycle && out_free[k] && switch_ok && credit != 9'd0;
                    assign lacks[k] = left_now[k] && (!out_vc_valid[S] || credits[(k*VCS + {{(32-VW){1'b0}}, out_vc[S*VW +: VW]})*9 +: 9] == 9'd0);
                end else begin : g_local
                    // To the node: with ejection VCs one of the first ejection_vcs of the local port.
                    for (w = 0; w < VCS; w = w + 1) begin : g_cand
                        assign cand[k*VCS + w] = w < ejection_vcs && !owned[k*VCS + w];
                    end
                    assign ask_ok[k] = left_now[k] && !out_vc_valid[S] && local_vcs && cand[k*VCS +: VCS] != {VCS{1'b0}};
                    assign may[k] = left_now[k] && here && out_free[k] && (!local_vcs || switch_ok);
                    assign lacks[k] = 1'b0;
                end
            end

            // Serial: the copy in progress asks, if it may. Per-branch: the first copy in key order that
            // may (a copy waiting for its output does not hold the others back).
            assign va_pick = per_branch_on ? first_in_order(ask_ok, nb, pr, ranks) : {ask_ok[cur_at], cur_at};
            wire [OW-1:0] va_at = va_pick[OW-1:0];
            assign va_req[c] = !thru_mode && routed_now && eligible_now <= cycle + lead && va_pick[OW];
            assign va_out[c*OW +: OW] = va_at;
            assign va_candidates[c*VCS +: VCS] = cand[va_at*VCS +: VCS];
            assign va_pri[c*32 +: 32] = pr_all[va_at*32 +: 32];
            wire [OW:0] sa_pick = per_branch_on ? first_in_order(may, nb, pr, ranks) : {may[cur_at], cur_at};
            wire [OW-1:0] sel = sa_pick[OW-1:0];
            assign sa_req[c] = !thru_mode && routed_now && eligible_now <= cycle && sa_pick[OW];
            assign sa_out[c*OW +: OW] = sel;
            assign sa_pri[c*32 +: 32] = pr_all[sel*32 +: 32];

            // Observation: the front packet's header, whether it is routed, has its output VC, goes to the
            // node, has the copy's next flit here; the copy's output, output VC and next flit. The copy
            // shown: serially the one in progress; per-branch the first that lacks an output VC or a
            // credit, else the first still to send (as InputBufferedRouter::snapshot).
            /* verilator lint_off UNUSEDSIGNAL */
            wire [OW:0] lacking = first_in_order(lacks, nb, pr, ranks);  // (found: lacks is not empty)
            /* verilator lint_on UNUSEDSIGNAL */
            wire [OW-1:0] show = per_branch_on && lacks != {(PORTS+1){1'b0}} ? lacking[OW-1:0] : cur_at;
            wire show_local = show == PORTS[OW-1:0];
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] show_slot = PER_BRANCH != 0 ? {{(32-OW){1'b0}}, show} : 32'd0;  // (below COPIES)
            /* verilator lint_on UNUSEDSIGNAL */
            wire [FW-1:0] show_rd = rd_of[show*FW +: FW];
            wire [FW-1:0] show_rel = show_rd - freed;
            wire [PW-1:0] show_port = show_local ? {PW{1'b0}} : show[PW-1:0];
            assign dbg_state[c*96 +: 96] = {4'd0, {(8-FW){1'b0}}, show_rd, {(8-VW){1'b0}}, out_vc[show_slot*VW +: VW],
                                            {(8-PW){1'b0}}, show_port,
                                            {{(31-AW){1'b0}}, count} > {{(32-FW){1'b0}}, show_rel}, show_local,
                                            out_vc_valid[show_slot], routed, header};

            // Traversal. The flit leaving is freed (a credit upstream) by the last copy to send it:
            // serially the last copy; per-branch the slowest (no other copy still at it).
            wire going = sa_grant && {{(32-VW){1'b0}}, sa_vc} == c;
            wire [FW-1:0] rd_sel = rd_of[sel*FW +: FW];
            wire [PORTS:0] sel_bit = {{PORTS{1'b0}}, 1'b1} << sel;
            // Fan-out: the other copies that may take the same flit now; those that crossed move on.
            wire [PORTS:0] same_flit;
            for (k = 0; k <= PORTS; k = k + 1) begin : g_same
                assign same_flit[k] = rd_of[k*FW +: FW] == rd_sel;
            end
            assign sa_fan[c*(PORTS+1) +: PORTS+1] = fan_on ? may & same_flit & ~sel_bit : {(PORTS+1){1'b0}};
            wire [PORTS:0] crossed = fan_on ? sa_granted_outs : sel_bit;
            wire [PORTS:0] moves = fan_on && tst_fan_stale ? crossed & sel_bit : crossed;
            wire others_ahead = (ahead | crossed) == {(PORTS+1){1'b1}};
            wire tail = {{(32-FW){1'b0}}, rd_sel} + 32'd1 == {25'd0, len_now};
            wire pop = going && (per_branch_on ? others_ahead || tst_free_early : last);
            wire done = (left_now & ~moves) == {(PORTS+1){1'b0}};  // (serially: the last copy)
            wire [FW-1:0] rel_sel = rd_sel - freed;
            wire [31:0] rel32 = {{(32-FW){1'b0}}, rel_sel};
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] at = {{(32-AW){1'b0}}, head} + rel32;
            /* verilator lint_on UNUSEDSIGNAL */
            assign tr_flits[c*FLIT_W +: FLIT_W] = rel32 == {{(31-AW){1'b0}}, count} ? push_flit : ring[at[AW-1:0]];
            assign out_vcs[c*(PORTS+1)*VW +: (PORTS+1)*VW] = vc_now;
            assign tails[c] = tail;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] leaving = consume ? {25'd0, len_now} : {31'd0, pop};
            /* verilator lint_on UNUSEDSIGNAL */
            assign freed_now[c*8 +: 8] = INJECTION != 0 ? 8'd0 : consume && tst_short_credit ? leaving[7:0] - 8'd1 : leaving[7:0];
            wire [AW:0] count_next = count1 - leaving[AW:0];
            // After a pop: the next packet's kind, in its header's last flit (here or arriving now).
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] kind_at = {{(32-AW){1'b0}}, head} + HF;
            wire [FLIT_W-1:0] kind_flit = {{(31-AW){1'b0}}, count} == HF ? push_flit : ring[kind_at[AW-1:0]];
            /* verilator lint_on UNUSEDSIGNAL */
            wire next_token = kind_flit[KIND_BIT];
            wire next_routes = {{(31-AW){1'b0}}, count_next} >= HF && (switching != STORE_FORWARD ||
                               {{(31-AW){1'b0}}, count_next} >= {25'd0, length_of(next_token, packet_flits)});

            integer i;
            always @(posedge clk) begin
                if (rst) begin
                    head <= {AW{1'b0}};
                    count <= {(AW+1){1'b0}};
                    peak <= {(AW+1){1'b0}};
                    routed <= 1'b0;
                    left_valid <= 1'b0;
                    left <= {(PORTS+1){1'b0}};
                    hdr <= 64'd0;
                    hdr_transit <= 1'b0;
                    len <= 7'd1;
                    freed <= {FW{1'b0}};
                    rd <= {(COPIES*FW){1'b0}};
                    out_vc_valid <= {COPIES{1'b0}};
                    out_vc <= {(COPIES*VW){1'b0}};
                    eligible_at <= 32'd0;
                end else if (run) begin
                    if (pushing) ring[head + count[AW-1:0]] <= push_flit;
                    if (pushing) ring_transit[head + count[AW-1:0]] <= push_transit;
                    peak <= count1;
                    count <= count_next;
                    head <= head + leaving[AW-1:0];
                    routed <= routed_now && !consume;
                    if (consume) left_valid <= 1'b0;
                    if (routed_now && !fixed && !consume) begin  // routed at this edge, or at the last one after a packet ended
                        hdr <= front_header;
                        hdr_transit <= front_transit;
                        len <= len_now;
                        left <= left_now;
                        left_valid <= 1'b1;
                    end
                    eligible_at <= eligible_now;
                    for (i = 0; i < COPIES; i = i + 1)
                        if (va_grant[c] && (PER_BRANCH == 0 || {{(32-OW){1'b0}}, va_at} == i)) begin
                            out_vc_valid[i] <= 1'b1;
                            out_vc[i*VW +: VW] <= va_vc[c*VW +: VW];
                        end
                    if (going) begin
                        freed <= freed + {{(FW-1){1'b0}}, pop};
                        for (i = 0; i < COPIES; i = i + 1)  // (serial only built: the one slot)
                            if (PER_BRANCH == 0 || moves[i]) begin
                                rd[i*FW +: FW] <= tail ? {FW{1'b0}} : rd_sel + 1'b1;
                                if (tail) out_vc_valid[i] <= 1'b0;
                            end
                        if (tail) begin
                            if (done) begin  // the packet is done; the next one is routed if it may be
                                freed <= {FW{1'b0}};
                                routed <= next_routes;
                                left_valid <= 1'b0;
                                eligible_at <= cycle + {24'd0, router_delay};
                            end else begin
                                left <= left_now & ~moves;
                            end
                        end
                    end
                end
            end
        end
    endgenerate

    assign tr_flit = tr_flits[sa_vc*FLIT_W +: FLIT_W];
    assign tr_out_vc = out_vcs[sa_vc*(PORTS+1)*VW +: (PORTS+1)*VW];
    assign tr_tail = tails[sa_vc];
endmodule
