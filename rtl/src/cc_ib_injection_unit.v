// The network interface of the input-buffered router (InputBufferedRouter::inject_flit): one flit per
// cycle from the node's source queue into an injection virtual channel; a new packet goes into the
// first VC of its message class with room from a round-robin pointer on, and the pointer moves past it.
// Forwarding through the node, the node's memory comes first (InputBufferedRouter's emitted_ queue):
// the packets it holds from earlier edges (mem_*), else the first forwarded through it at this edge
// (by_*, straight from its input VC), and the node's own packets only when neither is there. Their
// flits carry a transit bit into the injection VC.
`include "cc_defs.vh"
module cc_ib_injection_unit #(
    parameter integer VCS = 4,
    parameter integer VW = 2,
    parameter integer AW = 4,
    parameter integer PF_MAX = 4,
    parameter integer FLIT_W = 64,
    parameter integer NODE_FORWARDING = 1, // 0: no forwarding through the node built (mem_* and by_* unused)
    parameter integer MSG_CLASSES = 1      // 1: two message classes built (msg_on); 0: one
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     run,
    input  wire [6:0]               packet_flits,
    input  wire [4:0]               vcs,
    input  wire [7:0]               vc_depth,
    input  wire                     msg_on,      // two message classes: a token takes a VC from data_vcs on, data one below
    input  wire [4:0]               data_vcs,
    input  wire                     src_valid,   // the node has a packet to send
    input  wire [PF_MAX*FLIT_W-1:0] src_flits,
    input  wire                     mem_valid,   // the node's memory holds a packet forwarded through it
    input  wire [PF_MAX*FLIT_W-1:0] mem_flits,
    input  wire                     by_valid,    // a packet forwarded through the node at this edge goes on
    input  wire [PF_MAX*FLIT_W-1:0] by_flits,
    output wire                     take,        // the own packet offered is taken at this edge
    output wire                     mem_take,    // the memory's packet is taken
    output wire                     by_take,     // the packet forwarded at this edge is taken
    input  wire                     free,        // the injection channel may carry a flit at this edge
    input  wire [VCS*(AW+1)-1:0]    counts,      // the injection VCs' flits
    output wire                     push,
    output wire [VW-1:0]            push_vc,
    output wire [FLIT_W-1:0]        push_flit,
    output wire                     push_transit // its packet came through the node
);
    reg              active;
    reg [VW-1:0]     vc, pointer;
    reg [6:0]        index, length;
    reg [PF_MAX*FLIT_W-1:0] packet;
    reg              transit;

    // The source: the node's memory, else this edge's forwarded packet, else the node's own.
    wire mem_on = NODE_FORWARDING != 0 && mem_valid, by_on = NODE_FORWARDING != 0 && by_valid;
    wire from_node = mem_on || by_on;
    wire [PF_MAX*FLIT_W-1:0] offered = mem_on ? mem_flits : by_on ? by_flits : src_flits;
    // Its message class's VCs (routers/logic/vc_classes.h): a token's from data_vcs on, data's below.
    wire two = MSG_CLASSES != 0 && msg_on;
    wire token = two && `CC_KIND(offered);
    wire [31:0] m_end = two && !token ? {27'd0, data_vcs} : {27'd0, vcs};

    reg          found;
    reg [VW-1:0] first;
    integer k, w;
    always @* begin
        found = 1'b0;
        first = {VW{1'b0}};
        for (k = VCS - 1; k >= 0; k = k - 1) begin  // the lowest k wins
            w = {{(32-VW){1'b0}}, pointer} + k;
            if (w >= {27'd0, vcs}) w = w - {27'd0, vcs};
            if (k < {27'd0, vcs} && (!token || w >= {27'd0, data_vcs}) && w < m_end &&
                {{(31-AW){1'b0}}, counts[w*(AW+1) +: AW+1]} < {24'd0, vc_depth}) begin
                found = 1'b1;
                first = w[VW-1:0];
            end
        end
    end
    // A packet taken waits in the interface while the channel is busy (link period).
    wire taking = run && !active && (from_node || src_valid) && found;
    assign take = taking && !from_node;
    assign mem_take = taking && mem_on;
    assign by_take = taking && !mem_on && by_on;
    wire [VW-1:0] vc_now = active ? vc : first;
    wire room = {{(31-AW){1'b0}}, counts[vc_now*(AW+1) +: AW+1]} < {24'd0, vc_depth};
    assign push = (taking || (run && active)) && room && free;
    assign push_vc = vc_now;
    assign push_flit = active ? packet[index*FLIT_W +: FLIT_W] : offered[FLIT_W-1:0];
    assign push_transit = active ? transit : from_node;
    localparam integer HF = FLIT_W >= 64 ? 1 : 2;  // a header's flits (a token is its header)
    wire [6:0] src_length = `CC_KIND(offered) ? HF[6:0] : packet_flits;  // (the header is the packed flits' low 64 bits)

    always @(posedge clk) begin
        if (rst) begin
            active <= 1'b0;
            vc <= {VW{1'b0}};
            pointer <= {VW{1'b0}};
            index <= 7'd0;
            length <= 7'd1;
            packet <= {PF_MAX*FLIT_W{1'b0}};
            transit <= 1'b0;
        end else if (taking) begin
            vc <= first;
            pointer <= {{(32-VW){1'b0}}, first} + 32'd1 == {27'd0, vcs} ? {VW{1'b0}} : first + 1'b1;
            packet <= offered;
            transit <= from_node;
            length <= src_length;
            index <= push ? 7'd1 : 7'd0;
            active <= !(push && src_length == 7'd1);
        end else if (push) begin
            index <= index + 7'd1;
            if (index + 7'd1 == length) active <= 1'b0;
        end
    end
endmodule
