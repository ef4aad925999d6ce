// The input-buffered cubecast router in Verilog: routers/cores/ib_router.h's microarchitecture, cycle
// for cycle and bit for bit, for the hypercube and the control logics of cc_control_logic.v (SBT, MNB,
// TE, e-cube), with up to ITERS iterations of each allocator (the configurations the bench and the
// network refuse otherwise). A flit on a link joins its VC `link_delay` cycles after it crossed; a link, the local
// port and the injection channel carry a flit every `link_period` cycles; the node's packet enters its
// injection VC no sooner than `injection_delay` cycles after it was made (`src_made`), and a flit to
// the node reaches it `ejection_delay` cycles after it left the switch.
//   input units (one per link, one for the injection port: VCs, their control logics)
//   -> VC allocator -> switch allocator -> crossbar -> output units (credits, VC owners, link)
// Links: per port valid, VC and flit in each direction, and a credit word back, as the SystemC
// network's LinkBuses: a field per VC, 8 bits while `vcs` is at most 8 and 4 bits for 9 to 16 (the word
// VCS bytes wide, or 64 bits when more than 8 VCs are built: CWORD). The network interface takes the
// node's next packet (src_*) into an injection VC; deliveries leave flit by flit on dlv_*. Forwarding
// through the node (`through_node`), a link's packet leaves its VC whole for the node's memory (thru_*,
// at most one a port an edge: it leaves at the edge its tail arrives); the node delivers it and keeps
// those that go on, which the network interface injects again before the node's own (mem_*; the first
// of an edge may go straight in when the memory is empty).
// The all-port network interface (`all_port`, ALL_PORT built; with forwarding through the node): an
// injection input per link, as routers/blocks/network_interface.h. The node's memory keeps a queue of
// copies per link in key order (not-before cycle, priority, arrival) and offers each link's first
// (lnk_*); the node's own packets are split into those queues during load, by the decision of the
// interface's own control logic (split_*), and a packet forwarded through the node by the decision of
// the input unit it arrived in (thru_links, thru_keys). At each edge a link's injection input takes the
// first in key order of its queue's front and the copies for it forwarded at this edge, if its
// not-before cycle has come; the others join the queue.
// Message classes (`msg_classes`, MSG_CLASSES built): control tokens take the upper floor(vcs/2) VCs
// and data the lower, at the network interface and at every output; route and dateline classes
// split each message class's VCs as they would split all of them.
// Phases as cc_router.v: rst clears (and loads the straps, STRAP_REGS built); during load nothing
// moves (all-port: the node's own packets are split); then `cycle` counts edges from 0.
`include "cc_defs.vh"
module cc_ib_router #(
    parameter integer PORTS = 8,     // network ports built; `dim` (<= PORTS) of them are used
    parameter integer VCS = 4,       // virtual channels built per port, 1..16; `vcs` (<= VCS) are used
    parameter integer DEPTH = 16,    // flits a VC buffers (a power of two); `vc_depth` (<= DEPTH) are used
    parameter integer PF_MAX = 4,    // largest packet, in flits
    parameter integer FLIT_W = 64,   // link width: >= 64 (the header is a flit's low 64 bits) or 32 (two flits, low half first)
    parameter integer CD_MAX = 8,    // largest credit delay
    parameter integer LD_MAX = 4,    // largest link delay
    parameter integer ED_MAX = 4,    // largest ejection delay
    parameter integer ITERS = 1,     // allocator iterations built; `alloc_iters` (<= ITERS) are used
    parameter integer PER_BRANCH = 1,// per-branch replication built (a slot of state per copy in each VC); 0: serial only
    parameter integer NODE_FORWARDING = 1, // forwarding through the node built; 0: in the router only
    parameter integer FAN_OUT = 1,   // fan-out replication built (a crossbar that multicasts); 0: not
    parameter integer ALL_PORT = 1,  // the all-port network interface built (an injection input per link); 0: one-port only
    parameter integer MSG_CLASSES = 1, // two message classes built (control tokens on VCs of their own); 0: one
    parameter integer STRAP_REGS = 0 // the straps registered at reset (the simulator's build); 0: the pins wired through
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       load,
    // configuration straps
    input  wire [15:0]                node_id,
    input  wire [4:0]                 dim,
    input  wire [6:0]                 packet_flits,
    input  wire [1:0]                 algo,
    input  wire [3:0]                 sbt_rot,
    input  wire [2:0]                 radix_bits,    // 0: a hypercube (`dim` its dimension); k: an array of radix 2^k, `dim` its ports
    input  wire                       torus,         // (radix_bits > 0) a torus: its rings close
    input  wire [1:0]                 datelines,     // on the torus: 0 off, 1 wrap, 2 partition (the VC classes)
    input  wire [4:0]                 vcs,
    input  wire [4:0]                 route_classes, // a collective's route classes, 1..vcs (0: one); not with datelines
    input  wire                       msg_classes,   // message classes: 0 one, 1 two (MSG_CLASSES built): tokens on the upper vcs/2 VCs
    input  wire [7:0]                 vc_depth,
    input  wire [1:0]                 switching,     // 0 store-forward, 1 cut-through, 2 wormhole
    input  wire [7:0]                 router_delay,
    input  wire [3:0]                 credit_delay,
    input  wire [3:0]                 link_delay,
    input  wire [3:0]                 link_period,   // 1..
    input  wire [7:0]                 injection_delay,
    input  wire [3:0]                 ejection_delay,
    input  wire [4:0]                 ejection_vcs,  // the local port's VCs, allocated per packet (0: none, as no VC is needed)
    input  wire [3:0]                 alloc_iters,   // 1..ITERS
    input  wire                       replication,   // 0 serial, 1 per-branch (PER_BRANCH built): how a packet's copies leave
    input  wire                       fan_out,       // with per-branch: fan-out, a flit read once to every output won (FAN_OUT built)
    input  wire                       through_node,  // forwarding: 0 in the router, 1 through the node (NODE_FORWARDING built)
    input  wire                       all_port,      // the network interface: 0 one-port, 1 all-port (ALL_PORT built; through the node)
    input  wire                       tst_freeze_pointers,  // test hook: a planted bug (the switch allocator's input pointers stick)
    input  wire                       tst_no_turn,          // test hook: a planted bug (a copy never goes up a route class)
    input  wire                       tst_free_early,       // test hook: a planted bug (per-branch, a flit freed by any copy)
    input  wire                       tst_short_credit,       // test hook: a planted bug (a packet leaving for the node frees a credit too few)
    input  wire                       tst_own_first,        // test hook: a planted bug (the node's own packets before those it forwards)
    input  wire                       tst_fan_stale,        // test hook: a planted bug (fan-out, only the asking copy moves on)
    input  wire                       tst_queue_first,      // test hook: a planted bug (all-port, a link's queued copy before those forwarded at the edge)
    input  wire                       tst_class_mix,        // test hook: a planted bug (message classes, a token may take a data VC)
    // links
    input  wire [PORTS-1:0]           in_valid,
    input  wire [PORTS*VW-1:0]        in_vc,
    input  wire [PORTS*FLIT_W-1:0]    in_flit,
    output reg  [PORTS*CWORD-1:0]     in_credit,
    output wire [PORTS-1:0]           out_valid,
    output wire [PORTS*VW-1:0]        out_vc,
    output wire [PORTS*FLIT_W-1:0]    out_flit,
    input  wire [PORTS*CWORD-1:0]     out_credit,
    // the network interface
    input  wire                       src_valid,
    input  wire [PF_MAX*FLIT_W-1:0]   src_flits,
    input  wire [31:0]                src_made,      // the cycle the offered packet was made
    output reg                        src_taken,     // the packet offered before the last edge was taken
    output reg                        dlv_valid,
    output reg  [FLIT_W-1:0]          dlv_flit,
    output reg  [7:0]                 dlv_source,    // its input VC (port * VCS + vc): packets to the node may interleave
    // forwarding through the node: the packets that left their input VCs whole at the last edge (per
    // port), whether the node delivers each, whether it goes on and was not taken straight in
    // (`thru_keep`: the node's memory keeps it), and their flits; the memory's first packet (mem_*)
    output reg  [PORTS-1:0]           thru_valid,
    output reg  [PORTS-1:0]           thru_deliver,
    output reg  [PORTS-1:0]           thru_keep,
    output reg  [PORTS*PF_MAX*FLIT_W-1:0] thru_flits,
    input  wire                       mem_valid,
    input  wire [PF_MAX*FLIT_W-1:0]   mem_flits,
    output reg                        mem_taken,     // the memory's packet offered before the last edge was taken
    // the all-port network interface: per link the first copy of its queue in the node's memory (whether
    // its packet came through the node, whether it joined at this edge after the copies forwarded at it
    // (the node's own at their injection delay: those win a tie with it), and its key: not-before
    // cycle, priority), whether it was taken at the last edge; per port, the links the copies of the packet it forwarded through the node at
    // the last edge go to and were not taken straight in (the node queues each), and their keys
    // ({priority, not-before} per link); the node's own packet offered during load, split at the last
    // edge into the copies for these links, with these keys
    input  wire [PORTS-1:0]           lnk_valid,
    input  wire [PORTS*PF_MAX*FLIT_W-1:0] lnk_flits,
    input  wire [PORTS-1:0]           lnk_transit,
    input  wire [PORTS-1:0]           lnk_after,
    input  wire [PORTS*32-1:0]        lnk_nb,
    input  wire [PORTS*32-1:0]        lnk_pr,
    output reg  [PORTS-1:0]           lnk_taken,
    output reg  [PORTS*PORTS-1:0]     thru_links,
    output reg  [PORTS*PORTS*64-1:0]  thru_keys,
    output reg                        split_valid,
    output reg  [PORTS-1:0]           split_links,
    output reg  [PORTS*64-1:0]        split_keys,
    // observation
    output reg  [31:0]                cycle,
    output wire [NI*16-1:0]           dbg_occupancy, // flits buffered per input port (the injection inputs last)
    output wire [NI*VCS*8-1:0]        dbg_vc_flits,  // flits each input VC buffers
    output wire [NI*VCS*8-1:0]        dbg_vc_peaks,  // ... and held at the last edge once its new flit was in
    output wire [PORTS*VCS*9-1:0]     dbg_credits,   // per output VC: credits left plus those on their way back
    output reg  [NINJ-1:0]            dbg_ni_push,   // per injection input, it put a flit into an injection VC at the last edge
    output wire [NI*VCS*96-1:0]       dbg_vc_state,  // per input VC (the injection inputs' last), for stuck-state reports:
                                                     // [63:0] the front packet's header, [64] routed, [65] output VC
                                                     // allocated, [66] the copy goes to the node, [67] its next
                                                     // flit is here, [75:68] its output, [83:76] output VC, [91:84]
                                                     // the index of its next flit
    output wire [PORTS*VCS-1:0]       dbg_owned,     // per output VC: an input VC holds it
    output wire                       dbg_waiting    // something is due by the clock alone (a pipeline delay, a
                                                     // not-before cycle, credits on their way back)
);
    // The straps as the logic reads them: with STRAP_REGS, registers loaded at reset (a simulator then
    // evaluates the logic they feed at the clock edge alone, rather than again whenever another pin
    // moves: the pins may change only during reset); otherwise the pins themselves.
    wire [15:0] s_node_id;
    wire [4:0] s_dim, s_vcs, s_route_classes, s_ejection_vcs;
    wire [6:0] s_packet_flits;
    wire [1:0] s_algo, s_datelines, s_switching;
    wire [3:0] s_sbt_rot, s_credit_delay, s_link_delay, s_link_period, s_ejection_delay, s_alloc_iters;
    wire [2:0] s_radix_bits;
    wire s_torus, s_msg_classes, s_replication, s_fan_out, s_through_node, s_all_port, s_tst_freeze_pointers,
        s_tst_no_turn, s_tst_free_early, s_tst_short_credit, s_tst_own_first, s_tst_fan_stale, s_tst_queue_first,
        s_tst_class_mix;
    wire [7:0] s_vc_depth, s_router_delay, s_injection_delay;
    wire [113:0] strap_pins = {node_id, dim, packet_flits, algo, sbt_rot, radix_bits, torus, datelines, vcs,
        route_classes, msg_classes, vc_depth, switching, router_delay, credit_delay, link_delay, link_period,
        injection_delay, ejection_delay, ejection_vcs, alloc_iters, replication, fan_out, through_node, all_port,
        tst_freeze_pointers, tst_no_turn, tst_free_early, tst_short_credit, tst_own_first, tst_fan_stale,
        tst_queue_first, tst_class_mix};
    reg  [113:0] strap_regs;
    always @(posedge clk)
        if (rst) strap_regs <= strap_pins;
    assign {s_node_id, s_dim, s_packet_flits, s_algo, s_sbt_rot, s_radix_bits, s_torus, s_datelines, s_vcs,
        s_route_classes, s_msg_classes, s_vc_depth, s_switching, s_router_delay, s_credit_delay, s_link_delay,
        s_link_period, s_injection_delay, s_ejection_delay, s_ejection_vcs, s_alloc_iters, s_replication, s_fan_out,
        s_through_node, s_all_port, s_tst_freeze_pointers, s_tst_no_turn, s_tst_free_early, s_tst_short_credit,
        s_tst_own_first, s_tst_fan_stale, s_tst_queue_first, s_tst_class_mix} = STRAP_REGS != 0 ? strap_regs :
        strap_pins;
    localparam integer VW = VCS > 1 ? $clog2(VCS) : 1;
    localparam integer CWORD = VCS <= 8 ? VCS * 8 : 64;  // a link's credit word
    localparam integer PW = PORTS > 1 ? $clog2(PORTS) : 1;
    localparam integer OW = $clog2(PORTS + 1);
    localparam integer AW = $clog2(DEPTH);
    localparam integer FW = $clog2(PF_MAX + 1);
    localparam integer NIN = PORTS + 1;  // outputs: the links', then the local port
    localparam integer NINJ = ALL_PORT != 0 ? PORTS : 1;  // injection inputs built
    localparam integer NI = PORTS + NINJ;  // inputs: the links', then the injection inputs
    localparam integer NV = NI * VCS;
    localparam integer IW_VC = $clog2(NV + 1);
    localparam integer IW_PORT = 5;
    wire run = !rst && !load;
    wire ap = ALL_PORT != 0 && NODE_FORWARDING != 0 && s_all_port;  // (all-port needs forwarding through the node)
    wire [4:0] injections = ap ? s_dim : 5'd1;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] dim_ones = (32'd1 << s_dim) - 32'd1;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [PORTS-1:0] dim_links = dim_ones[PORTS-1:0];

    // The output ports' state (owned: the local port's VCs last).
    wire [(PORTS+1)*VCS-1:0] owned;
    wire [PORTS*VCS*9-1:0] credits;

    // Input units (the injection port's is fed by the network interface).
    wire [NI*VCS*(AW+1)-1:0] counts, peaks;
    wire [NV-1:0]          va_req, va_grant, sa_req;
    wire [NV*OW-1:0]       va_out;
    wire [NV*VCS-1:0]      va_candidates;
    wire [NV*32-1:0]       va_pri, sa_pri;
    wire [NV*VW-1:0]       va_vc;
    wire [NV*OW-1:0]       sa_out;
    wire [NI-1:0]          sa_grant;
    wire [NI*VW-1:0]       sa_vc;
    wire [NI*NIN-1:0]      sa_granted_outs;
    wire [NV*NIN-1:0]      sa_fan;
    wire [NI*FLIT_W-1:0]   tr_flit;
    wire [NI*NIN*VW-1:0]   tr_out_vc;
    wire [NI-1:0]          tr_tail;
    wire [NI*VCS*8-1:0]    freed;
    wire [PORTS*VCS-1:0]   thru_now, thru_dlv, thru_fwd;  // (the links' input units)
    wire [PORTS*VCS*PF_MAX*FLIT_W-1:0] thru_all;
    wire [PORTS*VCS*PORTS-1:0] thru_to;                  // ... the links their copies go to
    wire [PORTS*VCS*PORTS*32-1:0] thru_nb, thru_pr;      // ... and the copies' keys
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NV-1:0]          routed;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NV-1:0]          vc_waiting;
    wire [PORTS-1:0]       credits_coming;
    wire [NV*32-1:0]       mnb_addr;
    wire [NV*PORTS*16-1:0] mnb_row;
    wire [NV*PORTS-1:0]    te_addr;
    wire [NV*16-1:0]       te_position;
    wire [NINJ-1:0]        ni_push, ni_transit;     // per injection input
    wire [NINJ*VW-1:0]     ni_vc;
    wire [NINJ*FLIT_W-1:0] ni_flit;
    wire [NINJ-1:0]        ni_take, ni_mem_take;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NINJ-1:0]        ni_by_take;  // (all-port, the injection inputs take nothing by that path)
    /* verilator lint_on UNUSEDSIGNAL */
    genvar p, w;
    // The links' wires: a flit joins its VC link_delay edges after the edge that took it.
    wire [PORTS-1:0]        wire_valid;
    wire [PORTS*VW-1:0]     wire_vc;
    wire [PORTS*FLIT_W-1:0] wire_flit;
    wire [PORTS*VCS*8-1:0]  on_wire;  // per input VC: its flits on the wire (observation)
    generate
        for (p = 0; p < PORTS; p = p + 1) begin : g_wire
            reg              line_valid [0:LD_MAX-1];
            reg [VW-1:0]     line_vc    [0:LD_MAX-1];
            reg [FLIT_W-1:0] line_flit  [0:LD_MAX-1];
            reg              out_valid_r;
            reg [VW-1:0]     out_vc_r;
            reg [FLIT_W-1:0] out_flit_r;
            integer k;
            always @* begin
                out_valid_r = run && in_valid[p];
                out_vc_r = in_vc[p*VW +: VW];
                out_flit_r = in_flit[p*FLIT_W +: FLIT_W];
                for (k = 0; k < LD_MAX; k = k + 1)
                    if ({28'd0, s_link_delay} == k + 1) begin
                        out_valid_r = line_valid[k];
                        out_vc_r = line_vc[k];
                        out_flit_r = line_flit[k];
                    end
            end
            assign wire_valid[p] = out_valid_r;
            assign wire_vc[p*VW +: VW] = out_vc_r;
            assign wire_flit[p*FLIT_W +: FLIT_W] = out_flit_r;
            always @(posedge clk) begin
                if (rst) begin
                    for (k = 0; k < LD_MAX; k = k + 1) line_valid[k] <= 1'b0;
                end else if (run) begin
                    line_valid[0] <= in_valid[p];
                    line_vc[0] <= in_vc[p*VW +: VW];
                    line_flit[0] <= in_flit[p*FLIT_W +: FLIT_W];
                    for (k = 1; k < LD_MAX; k = k + 1) begin
                        line_valid[k] <= line_valid[k - 1];
                        line_vc[k] <= line_vc[k - 1];
                        line_flit[k] <= line_flit[k - 1];
                    end
                end
            end
            for (w = 0; w < VCS; w = w + 1) begin : g_on_wire
                reg [7:0] n;
                always @* begin
                    n = 8'd0;
                    for (k = 0; k < LD_MAX; k = k + 1)
                        if (k < {28'd0, s_link_delay} && line_valid[k] && {{(32-VW){1'b0}}, line_vc[k]} == w) n = n + 8'd1;
                end
                assign on_wire[(p*VCS + w)*8 +: 8] = n;
            end
        end
    endgenerate

    // Each output (the local port last: the crossbar paces them) and the injection channel carry a
    // flit every link_period edges.
    wire [PORTS:0] out_free;

    // Message classes (routers/logic/vc_classes.h, message_class_window; `msg_classes`, MSG_CLASSES
    // built): a collective's control tokens on the upper floor(vcs/2) VCs, its data on the lower
    // ceil(vcs/2), so a token never waits behind the data it releases.
    wire msg_on = MSG_CLASSES != 0 && s_msg_classes;
    wire [4:0] data_vcs = msg_on ? s_vcs - (s_vcs >> 1) : s_vcs;  // (the first token VC)
    // Each VC's route class (routers/logic/vc_classes.h, class_of_vc): VC v of its message class's n
    // VCs from the class's first, f, is in route class (v - f) * route_classes / n, so the classes
    // split each message class's VCs in runs as even as they go.
    wire [VCS*4-1:0] vc_class;
    generate
        for (w = 0; w < VCS; w = w + 1) begin : g_vc_class
            localparam [8:0] V = w;
            wire token_vc = msg_on && V >= {4'd0, data_vcs};
            wire [8:0] index = token_vc ? V - {4'd0, data_vcs} : V;
            wire [4:0] count = token_vc ? s_vcs - data_vcs : data_vcs;
            wire [8:0] scaled = index * {4'd0, s_route_classes};
            /* verilator lint_off UNUSEDSIGNAL */
            wire [8:0] quotient = count == 5'd0 ? 9'd0 : scaled / {4'd0, count};  // (below route_classes <= 16)
            /* verilator lint_on UNUSEDSIGNAL */
            assign vc_class[w*4 +: 4] = quotient[3:0];
        end
    endgenerate

    generate
        for (p = 0; p < NI; p = p + 1) begin : g_in
            localparam integer J = p >= PORTS ? p - PORTS : 0;  // (an injection input's index)
            wire is_link = p < PORTS;
            // (the injection units' are constant 0: a packet from the node never goes through it again)
            /* verilator lint_off UNUSEDSIGNAL */
            wire [VCS-1:0] unit_thru, unit_dlv, unit_fwd;
            wire [VCS*PF_MAX*FLIT_W-1:0] unit_flits;
            wire [VCS*PORTS-1:0] unit_to;
            wire [VCS*PORTS*32-1:0] unit_nb, unit_pr;
            /* verilator lint_on UNUSEDSIGNAL */
            if (p < PORTS) begin : g_thru
                assign thru_now[p*VCS +: VCS] = unit_thru;
                assign thru_dlv[p*VCS +: VCS] = unit_dlv;
                assign thru_fwd[p*VCS +: VCS] = unit_fwd;
                assign thru_all[p*VCS*PF_MAX*FLIT_W +: VCS*PF_MAX*FLIT_W] = unit_flits;
                assign thru_to[p*VCS*PORTS +: VCS*PORTS] = unit_to;
                assign thru_nb[p*VCS*PORTS*32 +: VCS*PORTS*32] = unit_nb;
                assign thru_pr[p*VCS*PORTS*32 +: VCS*PORTS*32] = unit_pr;
            end
            cc_ib_input_unit #(.PORTS(PORTS), .VCS(VCS), .VW(VW), .DEPTH(DEPTH), .AW(AW), .FW(FW), .FLIT_W(FLIT_W),
                               .PW(PW), .OW(OW), .INJECTION(p >= PORTS ? 1 : 0), .PORT(p),
                               .PER_BRANCH(PER_BRANCH), .PF_MAX(PF_MAX), .NODE_FORWARDING(NODE_FORWARDING),
                               .FAN_OUT(FAN_OUT), .INJ_LINK(J), .SPLITS(ALL_PORT), .MSG_CLASSES(MSG_CLASSES)) u_in (
                .clk(clk), .rst(rst), .run(run), .cycle(cycle), .node_id(s_node_id), .dim(s_dim), .packet_flits(s_packet_flits),
                .algo(s_algo), .sbt_rot(s_sbt_rot), .radix_bits(s_radix_bits), .torus(s_torus), .datelines(s_datelines), .vcs(s_vcs), .route_classes(s_route_classes), .vc_class(vc_class), .msg_on(msg_on), .data_vcs(data_vcs), .tst_class_mix(s_tst_class_mix), .tst_no_turn(s_tst_no_turn), .tst_free_early(s_tst_free_early), .tst_short_credit(s_tst_short_credit), .switching(s_switching), .router_delay(s_router_delay),
                .ejection_vcs(s_ejection_vcs), .per_branch(s_replication), .fan_out(s_fan_out), .tst_fan_stale(s_tst_fan_stale),
                .through_node(s_through_node), .all_port(ap),
                .push(is_link ? wire_valid[p % PORTS] : ni_push[J]),
                .push_vc(is_link ? wire_vc[(p % PORTS)*VW +: VW] : ni_vc[J*VW +: VW]),
                .push_flit(is_link ? wire_flit[(p % PORTS)*FLIT_W +: FLIT_W] : ni_flit[J*FLIT_W +: FLIT_W]),
                .push_transit(!is_link && ni_transit[J]),
                .out_free(out_free),
                .counts(counts[p*VCS*(AW+1) +: VCS*(AW+1)]),
                .peaks(peaks[p*VCS*(AW+1) +: VCS*(AW+1)]), .owned(owned), .credits(credits),
                .va_req(va_req[p*VCS +: VCS]), .va_out(va_out[p*VCS*OW +: VCS*OW]),
                .va_candidates(va_candidates[p*VCS*VCS +: VCS*VCS]), .va_pri(va_pri[p*VCS*32 +: VCS*32]),
                .va_grant(va_grant[p*VCS +: VCS]), .va_vc(va_vc[p*VCS*VW +: VCS*VW]),
                .sa_req(sa_req[p*VCS +: VCS]), .sa_out(sa_out[p*VCS*OW +: VCS*OW]), .sa_pri(sa_pri[p*VCS*32 +: VCS*32]),
                .sa_fan(sa_fan[p*VCS*NIN +: VCS*NIN]), .sa_grant(sa_grant[p]), .sa_vc(sa_vc[p*VW +: VW]),
                .sa_granted_outs(sa_granted_outs[p*NIN +: NIN]), .tr_flit(tr_flit[p*FLIT_W +: FLIT_W]),
                .tr_out_vc(tr_out_vc[p*NIN*VW +: NIN*VW]), .tr_tail(tr_tail[p]), .freed_now(freed[p*VCS*8 +: VCS*8]),
                .thru_now(unit_thru), .thru_deliver(unit_dlv), .thru_forwards(unit_fwd), .thru_flits(unit_flits),
                .thru_links(unit_to), .thru_nb(unit_nb), .thru_pr(unit_pr),
                .dbg_routed(routed[p*VCS +: VCS]), .dbg_waiting(vc_waiting[p*VCS +: VCS]),
                .dbg_state(dbg_vc_state[p*VCS*96 +: VCS*96]),
                .mnb_addr(mnb_addr[p*VCS*32 +: VCS*32]), .mnb_row(mnb_row[p*VCS*PORTS*16 +: VCS*PORTS*16]),
                .te_addr(te_addr[p*VCS*PORTS +: VCS*PORTS]), .te_position(te_position[p*VCS*16 +: VCS*16]));
            // Flits buffered at this input.
            reg [15:0] sum;
            integer k;
            always @* begin
                sum = 16'd0;
                for (k = 0; k < VCS; k = k + 1) sum = sum + {{(15-AW){1'b0}}, counts[(p*VCS + k)*(AW+1) +: AW+1]};
            end
            assign dbg_occupancy[p*16 +: 16] = sum;
            for (w = 0; w < VCS; w = w + 1) begin : g_vc_flits
                assign dbg_vc_flits[(p*VCS + w)*8 +: 8] = {{(7-AW){1'b0}}, counts[(p*VCS + w)*(AW+1) +: AW+1]} +
                                                          (p < PORTS ? on_wire[((p % PORTS)*VCS + w)*8 +: 8] : 8'd0);
                assign dbg_vc_peaks[(p*VCS + w)*8 +: 8] = {{(7-AW){1'b0}}, peaks[(p*VCS + w)*(AW+1) +: AW+1]};
            end
        end
    endgenerate

    // The all-port interface's control logic (built with it): it splits the node's own packet offered
    // during load (ROM port NV, after the input VCs').
    wire [PORTS-1:0] split_fwd;
    wire [PORTS*32-1:0] split_nb, split_pr;
    generate
        if (ALL_PORT != 0) begin : g_split
            wire [31:0] split_mnb_addr;
            wire [PORTS*16-1:0] split_mnb_row;
            wire [PORTS-1:0] split_te_addr;
            wire [15:0] split_te_position;
            /* verilator lint_off UNUSEDSIGNAL */
            wire split_deliver;  // (a delivery decided for an own packet is the node's: not a copy)
            /* verilator lint_on UNUSEDSIGNAL */
            cc_control_logic #(.D_MAX(PORTS)) u_split (
                .node_id(s_node_id), .dim(s_dim), .packet_flits(s_packet_flits), .algo(s_algo), .sbt_rot(s_sbt_rot),
                .radix_bits(s_radix_bits), .torus(s_torus), .own(1'b1), .hdr(src_flits[63:0]), .deliver(split_deliver),
                .fwd(split_fwd), .not_before(split_nb), .prio(split_pr), .mnb_addr(split_mnb_addr), .row(split_mnb_row),
                .te_addr(split_te_addr), .own_position(split_te_position));
            cc_rom #(.D_MAX(PORTS), .NSRC(NV + 1)) u_rom (
                .mnb_addr({split_mnb_addr, mnb_addr}), .mnb_row({split_mnb_row, mnb_row}), .te_addr({split_te_addr, te_addr}),
                .te_position({split_te_position, te_position}));
        end else begin : g_no_split
            assign split_fwd = {PORTS{1'b0}};
            assign split_nb = {(PORTS*32){1'b0}};
            assign split_pr = {(PORTS*32){1'b0}};
            cc_rom #(.D_MAX(PORTS), .NSRC(NV)) u_rom (
                .mnb_addr(mnb_addr), .mnb_row(mnb_row), .te_addr(te_addr), .te_position(te_position));
        end
    endgenerate

    // Forwarding through the node: per port, the packet that left its VC whole at this edge (one VC at
    // most); the first of them in port order that goes on may go straight into the injection VC.
    reg [PORTS-1:0] port_thru, port_dlv, port_fwd;
    reg [PORTS*PF_MAX*FLIT_W-1:0] port_flits;
    reg [PORTS*PORTS-1:0] port_to;
    reg [PORTS*PORTS*32-1:0] port_nb, port_pr;
    reg by_valid;
    reg [PF_MAX*FLIT_W-1:0] by_flits;
    reg [PORTS-1:0] by_port;
    integer t, tv;
    always @* begin
        port_thru = {PORTS{1'b0}};
        port_dlv = {PORTS{1'b0}};
        port_fwd = {PORTS{1'b0}};
        port_flits = {(PORTS*PF_MAX*FLIT_W){1'b0}};
        port_to = {(PORTS*PORTS){1'b0}};
        port_nb = {(PORTS*PORTS*32){1'b0}};
        port_pr = {(PORTS*PORTS*32){1'b0}};
        by_valid = 1'b0;
        by_flits = {(PF_MAX*FLIT_W){1'b0}};
        by_port = {PORTS{1'b0}};
        for (t = 0; t < PORTS; t = t + 1)
            for (tv = 0; tv < VCS; tv = tv + 1)
                if (NODE_FORWARDING != 0 && thru_now[t*VCS + tv]) begin
                    port_thru[t] = 1'b1;
                    port_dlv[t] = thru_dlv[t*VCS + tv];
                    port_fwd[t] = thru_fwd[t*VCS + tv];
                    port_flits[t*PF_MAX*FLIT_W +: PF_MAX*FLIT_W] = thru_all[(t*VCS + tv)*PF_MAX*FLIT_W +: PF_MAX*FLIT_W];
                    port_to[t*PORTS +: PORTS] = thru_to[(t*VCS + tv)*PORTS +: PORTS];
                    port_nb[t*PORTS*32 +: PORTS*32] = thru_nb[(t*VCS + tv)*PORTS*32 +: PORTS*32];
                    port_pr[t*PORTS*32 +: PORTS*32] = thru_pr[(t*VCS + tv)*PORTS*32 +: PORTS*32];
                end
        for (t = PORTS - 1; t >= 0; t = t - 1)  // the lowest port wins
            if (port_thru[t] && port_fwd[t]) begin
                by_valid = 1'b1;
                by_flits = port_flits[t*PF_MAX*FLIT_W +: PF_MAX*FLIT_W];
                by_port = {{(PORTS-1){1'b0}}, 1'b1} << t;
            end
    end

    // All-port: per link, the first in key order (not-before cycle, priority, arrival) of its queue's
    // front (older than any copy forwarded at this edge, unless it joins after them: lnk_after) and the
    // copies for it forwarded at this edge (in port order), taken if its not-before cycle has come (none
    // later in key order is due then).
    reg [PORTS-1:0] ap_due, ap_from_queue, ap_transit;
    /* verilator lint_off UNUSEDSIGNAL */  // (built one-port only, the first link's alone is read)
    reg [PORTS*PF_MAX*FLIT_W-1:0] ap_flits;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [PORTS*PORTS-1:0] ap_by;  // per link, the port whose forwarded copy it is (a bit)
    reg ap_found;
    reg [31:0] ap_nb, ap_pr;
    integer a, b;
    always @* begin
        ap_due = {PORTS{1'b0}};
        ap_from_queue = {PORTS{1'b0}};
        ap_transit = {PORTS{1'b0}};
        ap_flits = {(PORTS*PF_MAX*FLIT_W){1'b0}};
        ap_by = {(PORTS*PORTS){1'b0}};
        for (a = 0; a < PORTS; a = a + 1) begin
            ap_found = lnk_valid[a];
            ap_nb = lnk_nb[a*32 +: 32];
            ap_pr = lnk_pr[a*32 +: 32];
            ap_from_queue[a] = lnk_valid[a];
            ap_transit[a] = lnk_transit[a];
            ap_flits[a*PF_MAX*FLIT_W +: PF_MAX*FLIT_W] = lnk_flits[a*PF_MAX*FLIT_W +: PF_MAX*FLIT_W];
            for (b = 0; b < PORTS; b = b + 1)
                if (port_thru[b] && port_to[b*PORTS + a] && !(s_tst_queue_first && lnk_valid[a]) &&
                    (!ap_found || port_nb[(b*PORTS + a)*32 +: 32] < ap_nb ||
                     (port_nb[(b*PORTS + a)*32 +: 32] == ap_nb && (port_pr[(b*PORTS + a)*32 +: 32] < ap_pr ||
                      (port_pr[(b*PORTS + a)*32 +: 32] == ap_pr && ap_from_queue[a] && lnk_after[a]))))) begin
                    ap_found = 1'b1;
                    ap_nb = port_nb[(b*PORTS + a)*32 +: 32];
                    ap_pr = port_pr[(b*PORTS + a)*32 +: 32];
                    ap_from_queue[a] = 1'b0;
                    ap_transit[a] = 1'b1;
                    ap_flits[a*PF_MAX*FLIT_W +: PF_MAX*FLIT_W] = port_flits[b*PF_MAX*FLIT_W +: PF_MAX*FLIT_W];
                    ap_by[a*PORTS +: PORTS] = {{(PORTS-1){1'b0}}, 1'b1} << b;
                end
            ap_due[a] = ap && ap_found && ap_nb <= cycle;
        end
    end

    // The injection inputs' network interface: one-port, the first takes the node's own packets, its
    // memory's and those forwarded at this edge; all-port, each its link's choice above.
    wire src_due = src_valid && src_made + {24'd0, s_injection_delay} <= cycle;
    wire own_first = s_tst_own_first && src_due;
    reg [31:0] inject_free_at [0:NINJ-1];
    genvar n;
    generate
        for (n = 0; n < NINJ; n = n + 1) begin : g_ni
            localparam integer L = n < PORTS ? n : 0;  // (its link)
            wire one = n == 0 && !ap;
            wire due = ap && ap_due[L];
            cc_ib_injection_unit #(.VCS(VCS), .VW(VW), .AW(AW), .PF_MAX(PF_MAX), .FLIT_W(FLIT_W), .NODE_FORWARDING(NODE_FORWARDING),
                                   .MSG_CLASSES(MSG_CLASSES)) u_ni (
                .clk(clk), .rst(rst), .run(run), .packet_flits(s_packet_flits), .vcs(s_vcs), .vc_depth(s_vc_depth),
                .msg_on(msg_on), .data_vcs(data_vcs),
                .src_valid(one ? src_due : due && !ap_transit[L]),
                .src_flits(one ? src_flits : ap_flits[L*PF_MAX*FLIT_W +: PF_MAX*FLIT_W]),
                .mem_valid(one ? NODE_FORWARDING != 0 && mem_valid && !own_first : due && ap_transit[L]),
                .mem_flits(one ? mem_flits : ap_flits[L*PF_MAX*FLIT_W +: PF_MAX*FLIT_W]),
                .by_valid(one && by_valid && !own_first), .by_flits(by_flits),
                .take(ni_take[n]), .mem_take(ni_mem_take[n]), .by_take(ni_by_take[n]),
                .free(inject_free_at[n] <= cycle), .counts(counts[(PORTS + n)*VCS*(AW+1) +: VCS*(AW+1)]),
                .push(ni_push[n]), .push_vc(ni_vc[n*VW +: VW]), .push_flit(ni_flit[n*FLIT_W +: FLIT_W]),
                .push_transit(ni_transit[n]));
            always @(posedge clk)
                if (rst) inject_free_at[n] <= 32'd0;
                else if (run && ni_push[n]) inject_free_at[n] <= cycle + {28'd0, s_link_period};
        end
    endgenerate
    // All-port: the links whose choice was taken at this edge, from the queue's front or as a copy
    // forwarded at this edge (per port, the links its copies went straight in on).
    reg [PORTS-1:0] ap_taken, ap_queue_taken;
    reg [PORTS*PORTS-1:0] ap_straight;  // per port, per link
    integer g, h;
    always @* begin
        ap_taken = {PORTS{1'b0}};
        for (g = 0; g < NINJ; g = g + 1)
            if (g < PORTS) ap_taken[g] = ap && (ni_take[g] || ni_mem_take[g]);
        ap_queue_taken = ap_taken & ap_from_queue;
        ap_straight = {(PORTS*PORTS){1'b0}};
        for (g = 0; g < PORTS; g = g + 1)
            for (h = 0; h < PORTS; h = h + 1)
                if (ap_taken[h] && ap_by[h*PORTS + g]) ap_straight[g*PORTS + h] = 1'b1;
    end
    // All-port: the node's own packet offered during load, split by the interface's control logic.
    wire split_now = ap && load && !rst && src_valid;
    assign dbg_owned = owned[PORTS*VCS-1:0];
    assign dbg_waiting = vc_waiting != {NV{1'b0}} || credits_coming != {PORTS{1'b0}};

    cc_ib_vc_allocator #(.PORTS(PORTS), .VCS(VCS), .ITERS(ITERS), .PW(OW), .VW(VW), .IW(IW_VC), .NI(NI)) u_va (
        .clk(clk), .rst(rst), .run(run), .dim(s_dim), .injections(injections), .vcs(s_vcs), .iters(s_alloc_iters), .req(va_req), .out(va_out),
        .candidates(va_candidates), .pri(va_pri), .grant(va_grant), .granted_vc(va_vc));

    cc_ib_switch_allocator #(.PORTS(PORTS), .VCS(VCS), .ITERS(ITERS), .OW(OW), .VW(VW), .IW(IW_PORT), .NI(NI)) u_sa (
        .clk(clk), .rst(rst), .run(run), .dim(s_dim), .injections(injections), .vcs(s_vcs), .iters(s_alloc_iters), .tst_freeze(s_tst_freeze_pointers),
        .req(sa_req),
        .out(sa_out), .pri(sa_pri), .fan(sa_fan), .grant(sa_grant), .granted_vc(sa_vc),
        .granted_outs(sa_granted_outs));

    // The crossbar, then the output units.
    wire [PORTS-1:0]        send, send_tail;
    wire [PORTS*VW-1:0]     send_vc;
    wire [PORTS*FLIT_W-1:0] send_flit;
    wire                    local_send, local_tail;
    wire [VW-1:0]           local_vc;
    wire [FLIT_W-1:0]       local_flit;
    wire [7:0]              local_source;
    cc_ib_crossbar #(.PORTS(PORTS), .NIN(NI), .VCS(VCS), .VW(VW), .FLIT_W(FLIT_W)) u_xbar (
        .clk(clk), .rst(rst), .run(run), .cycle(cycle), .link_period(s_link_period),
        .grant(sa_grant), .granted_outs(sa_granted_outs), .granted_vc(sa_vc),
        .in_flit(tr_flit), .in_out_vc(tr_out_vc), .in_tail(tr_tail),
        .send(send), .send_tail(send_tail), .send_vc(send_vc), .send_flit(send_flit),
        .local_send(local_send), .local_tail(local_tail), .local_vc(local_vc), .local_flit(local_flit),
        .local_source(local_source), .out_free(out_free));
    generate
        for (p = 0; p < PORTS; p = p + 1) begin : g_out
            // The output VCs the VC allocator hands out at this edge.
            reg [VCS-1:0] take;
            integer i;
            always @* begin
                take = {VCS{1'b0}};
                for (i = 0; i < NV; i = i + 1)
                    if (va_grant[i] && {{(32-OW){1'b0}}, va_out[i*OW +: OW]} == p)
                        take = take | ({{(VCS-1){1'b0}}, 1'b1} << va_vc[i*VW +: VW]);
            end
            // (`vc_depth` the pin: it sets the credits at reset, when a registered strap is being loaded)
            cc_ib_output_unit #(.VCS(VCS), .VW(VW), .FLIT_W(FLIT_W), .CD_MAX(CD_MAX), .CWORD(CWORD)) u_out (
                .clk(clk), .rst(rst), .run(run), .vcs(s_vcs), .vc_depth(vc_depth), .credit_delay(s_credit_delay),
                .credit_in(out_credit[p*CWORD +: CWORD]), .credits_now(credits[p*VCS*9 +: VCS*9]),
                .owned(owned[p*VCS +: VCS]), .credits_held(dbg_credits[p*VCS*9 +: VCS*9]),
                .credits_coming(credits_coming[p]), .take(take), .send(send[p]), .send_vc(send_vc[p*VW +: VW]),
                .send_flit(send_flit[p*FLIT_W +: FLIT_W]), .send_tail(send_tail[p]), .out_valid(out_valid[p]), .out_vc(out_vc[p*VW +: VW]),
                .out_flit(out_flit[p*FLIT_W +: FLIT_W]));
            // Credits upstream: one for each flit freed at this edge, in VC w's field (8 bits, or 4
            // with more than 8 VCs; a packet that leaves whole for the node frees its every flit).
            reg [CWORD-1:0] credit_word;
            integer v;
            always @* begin
                credit_word = {CWORD{1'b0}};
                for (v = 0; v < VCS; v = v + 1)
                    if (s_vcs > 5'd8) credit_word[v*4 +: 4] = freed[(p*VCS + v)*8 +: 4];
                    else if (v < 8) credit_word[v*8 +: 8] = freed[(p*VCS + v)*8 +: 8];
            end
            always @(posedge clk)
                if (rst) in_credit[p*CWORD +: CWORD] <= {CWORD{1'b0}};
                else if (run) in_credit[p*CWORD +: CWORD] <= credit_word;
        end
    endgenerate

    // The local port: one flit per cycle to the node; with ejection VCs, each held by an input VC from
    // its allocation until the packet's tail has left for the node.
    reg [VCS-1:0] local_take, local_owned;
    assign owned[PORTS*VCS +: VCS] = local_owned;
    integer j;
    always @* begin
        local_take = {VCS{1'b0}};
        for (j = 0; j < NV; j = j + 1)
            if (va_grant[j] && {{(32-OW){1'b0}}, va_out[j*OW +: OW]} == PORTS)
                local_take = local_take | ({{(VCS-1){1'b0}}, 1'b1} << va_vc[j*VW +: VW]);
    end
    always @(posedge clk)
        if (rst) local_owned <= {VCS{1'b0}};
        else if (run)
            local_owned <= (local_owned | local_take) &
                           ~(local_send && local_tail && s_ejection_vcs != 5'd0 ? {{(VCS-1){1'b0}}, 1'b1} << local_vc : {VCS{1'b0}});

    // The ejection channel: a flit reaches the node ejection_delay edges after it left the switch.
    reg              eject_valid [0:ED_MAX-1];
    reg [FLIT_W-1:0] eject_flit  [0:ED_MAX-1];
    reg [7:0]        eject_source [0:ED_MAX-1];
    reg              ejected_valid;
    reg [FLIT_W-1:0] ejected_flit;
    reg [7:0]        ejected_source;
    integer e;
    always @* begin
        ejected_valid = run && local_send;
        ejected_flit = local_flit;
        ejected_source = local_source;
        for (e = 0; e < ED_MAX; e = e + 1)
            if ({28'd0, s_ejection_delay} == e + 1) begin
                ejected_valid = eject_valid[e];
                ejected_flit = eject_flit[e];
                ejected_source = eject_source[e];
            end
    end

    always @(posedge clk) begin
        if (rst) begin
            cycle <= 32'd0;
            src_taken <= 1'b0;
            mem_taken <= 1'b0;
            thru_valid <= {PORTS{1'b0}};
            thru_deliver <= {PORTS{1'b0}};
            thru_keep <= {PORTS{1'b0}};
            thru_flits <= {(PORTS*PF_MAX*FLIT_W){1'b0}};
            dlv_valid <= 1'b0;
            dlv_flit <= {FLIT_W{1'b0}};
            dlv_source <= 8'd0;
            for (e = 0; e < ED_MAX; e = e + 1) eject_valid[e] <= 1'b0;
            dbg_ni_push <= {NINJ{1'b0}};
            lnk_taken <= {PORTS{1'b0}};
            thru_links <= {(PORTS*PORTS){1'b0}};
            thru_keys <= {(PORTS*PORTS*64){1'b0}};
            split_valid <= 1'b0;
            split_links <= {PORTS{1'b0}};
            split_keys <= {(PORTS*64){1'b0}};
        end else begin
            dbg_ni_push <= ni_push;
            if (run) cycle <= cycle + 32'd1;
            src_taken <= ap ? split_now : ni_take[0];
            mem_taken <= !ap && ni_mem_take[0];
            thru_valid <= run ? port_thru : {PORTS{1'b0}};
            thru_deliver <= port_dlv;
            thru_keep <= port_thru & port_fwd & ~(!ap && ni_by_take[0] ? by_port : {PORTS{1'b0}});
            if (port_thru != {PORTS{1'b0}}) thru_flits <= port_flits;
            lnk_taken <= ap_queue_taken;
            thru_links <= ap ? port_to & ~ap_straight : {(PORTS*PORTS){1'b0}};
            if (ALL_PORT != 0)
                for (g = 0; g < PORTS*PORTS; g = g + 1) thru_keys[g*64 +: 64] <= {port_pr[g*32 +: 32], port_nb[g*32 +: 32]};
            split_valid <= split_now;
            if (split_now) begin
                split_links <= split_fwd & dim_links;
                for (g = 0; g < PORTS; g = g + 1) split_keys[g*64 +: 64] <= {split_pr[g*32 +: 32], split_nb[g*32 +: 32]};
            end
            dlv_valid <= ejected_valid;
            if (ejected_valid) begin
                dlv_flit <= ejected_flit;
                dlv_source <= ejected_source;
            end
            if (run) begin
                eject_valid[0] <= local_send;
                eject_flit[0] <= local_flit;
                eject_source[0] <= local_source;
                for (e = 1; e < ED_MAX; e = e + 1) begin
                    eject_valid[e] <= eject_valid[e - 1];
                    eject_flit[e] <= eject_flit[e - 1];
                    eject_source[e] <= eject_source[e - 1];
                end
            end
        end
    end
endmodule
