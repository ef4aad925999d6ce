// Control logic of the cubecast router (combinational): mirrors routers/algorithms/sbt.cpp,
// bostt_mnb.cpp and bostt_te.cpp. For a packet header it decides: deliver to the node, and for each
// output port whether to forward a copy and with which queue key (not-before cycle, priority).
//   SBT  (paper 003 §1): tree rooted at the origin, dimensions rotated by sbt_rot (R^c(SBT)).
//   MNB  (003 §2): children of x = id ^ origin in the A_i schedule: it asks the ROM (cc_rom.v) for
//        row 2^dim - 2 + x (a 16-bit slot per port, 0 = no child there).
//   TE   (003 §4): link k0 = highest bit of id ^ dest; own packets in the Fig. 6 order (ROM of
//        positions, address id ^ dest), forwarded ones not before slot 2^(k0-1)+1, by origin ^ id.
//   ECUBE (synthetic traffic, routers/algorithms/traffic_routing.cpp): deliver when id = dest, else
//        one copy to the lowest dimension in which they differ (dimension order), no key. On the
//        array and the torus (radix_bits = k > 0: radix 2^k, a node's digit i its bits [k*i +: k],
//        ports 2i and 2i+1 its minus and plus neighbour along dimension i, `dim` the ports, two per
//        dimension) the same rule over digits (dor, XY on the 2-D mesh): one step along the lowest
//        dimension whose digit differs, up if the destination's digit is larger; on the torus the
//        shorter way round the ring, up on a tie (Mesh::next_digit).
`include "cc_defs.vh"
module cc_control_logic #(
    parameter integer D_MAX = 8
) (
    input  wire [15:0]          node_id,
    input  wire [4:0]           dim,
    input  wire [6:0]           packet_flits,
    input  wire [1:0]           algo,
    input  wire [3:0]           sbt_rot,
    input  wire [2:0]           radix_bits, // 0: the hypercube; k: an array or torus of radix 2^k (ECUBE only)
    input  wire                 torus,      // (with radix_bits > 0) the rings close
    input  wire                 own,       // the node's own packet (local input port)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]          hdr,       // uses origin, dest
    /* verilator lint_on UNUSEDSIGNAL */
    output reg                  deliver,
    output reg  [D_MAX-1:0]     fwd,
    output reg  [D_MAX*32-1:0]  not_before,
    output reg  [D_MAX*32-1:0]  prio,
    // ROM port
    output wire [31:0]          mnb_addr,
    input  wire [D_MAX*16-1:0]  row,
    output wire [D_MAX-1:0]     te_addr,
    input  wire [15:0]          own_position
);
    localparam integer PW = $clog2(D_MAX);  // bits of a port number
    wire [15:0] dim_mask = (16'd1 << dim) - 16'd1;
    wire [15:0] x_origin = (node_id ^ `CC_ORIGIN(hdr)) & dim_mask;
    wire [15:0] x_dest   = (node_id ^ `CC_DEST(hdr)) & dim_mask;
    assign mnb_addr = (32'd1 << dim) - 32'd2 + {16'd0, x_origin};
    assign te_addr = x_dest[D_MAX-1:0];

    // Highest set bit of v (v != 0).
    function [4:0] msb16(input [15:0] v);
        integer b;
        begin
            msb16 = 5'd0;
            for (b = 0; b < 16; b = b + 1) if (v[b]) msb16 = b[4:0];
        end
    endfunction

    // Lowest set bit of v (v != 0).
    function [4:0] lsb16(input [15:0] v);
        integer b;
        begin
            lsb16 = 5'd0;
            for (b = 15; b >= 0; b = b - 1) if (v[b]) lsb16 = b[4:0];
        end
    endfunction

    // (j + rot) mod dim, for j, rot < dim.
    function [4:0] rot_port(input [4:0] j, input [3:0] rot, input [4:0] d);
        reg [5:0] s;
        begin
            s = {1'b0, j} + {2'b0, rot};
            rot_port = (s >= {1'b0, d}) ? s[4:0] - d : s[4:0];
        end
    endfunction

    // Dimension order on the array and the torus: the lowest dimension whose digit differs, and the port a
    // step toward the destination takes there (2i down, 2i + 1 up; round the ring the way with fewer hops).
    function [4:0] dor_port(input [15:0] id, input [15:0] dest, input [2:0] k, input [4:0] ports, input wraps);
        integer i;
        reg found;
        reg [15:0] digit_mask, own_digit, dest_digit;
        begin
            dor_port = 5'd0;
            found = 1'b0;
            digit_mask = (16'd1 << k) - 16'd1;
            for (i = 0; i < D_MAX / 2; i = i + 1)
                if (!found && 2 * i < ports) begin
                    own_digit = (id >> (k * i)) & digit_mask;
                    dest_digit = (dest >> (k * i)) & digit_mask;
                    if (own_digit != dest_digit) begin
                        found = 1'b1;
                        if (wraps)  // hops the plus way against the minus way, both mod 2^k
                            dor_port = 5'd2 * i[4:0] + (((dest_digit - own_digit) & digit_mask) <=
                                                        ((own_digit - dest_digit) & digit_mask) ? 5'd1 : 5'd0);
                        else
                            dor_port = 5'd2 * i[4:0] + (dest_digit > own_digit ? 5'd1 : 5'd0);
                    end
                end
        end
    endfunction

    integer j;
    reg [15:0] xr;          // x in rotated coordinates
    reg [4:0]  first;
    reg [4:0]  port;
    reg [15:0] slot;
    always @* begin
        deliver = 1'b0;
        fwd = {D_MAX{1'b0}};
        not_before = {D_MAX*32{1'b0}};
        prio = {D_MAX*32{1'b0}};
        xr = 16'd0;
        first = 5'd0;
        port = 5'd0;
        slot = 16'd0;
        case (algo)
            `CC_ALGO_SBT: begin
                deliver = !own;
                for (j = 0; j < 16; j = j + 1)
                    if (j < dim) begin
                        port = rot_port(j[4:0], sbt_rot, dim);
                        xr[j] = x_origin[port[3:0]];
                    end
                first = (xr == 16'd0) ? 5'd0 : msb16(xr) + 5'd1;
                for (j = 0; j < D_MAX; j = j + 1)
                    if (j < dim && j >= first) begin
                        port = rot_port(j[4:0], sbt_rot, dim);
                        fwd[port[PW-1:0]] = 1'b1;
                    end
            end
            `CC_ALGO_MNB: begin
                deliver = !own;
                for (j = 0; j < D_MAX; j = j + 1) begin
                    slot = row[j*16 +: 16];
                    if (j < dim && slot != 16'd0) begin
                        fwd[j] = 1'b1;
                        not_before[j*32 +: 32] = ({16'd0, slot} - 32'd1) * {25'd0, packet_flits};
                    end
                end
            end
            `CC_ALGO_TE: begin
                if (x_dest == 16'd0) begin
                    deliver = 1'b1;
                end else begin
                    port = msb16(x_dest);
                    fwd[port[PW-1:0]] = 1'b1;
                    if (own) begin
                        prio[port*32 +: 32] = {16'd0, own_position};
                    end else begin
                        not_before[port*32 +: 32] = {25'd0, packet_flits} << port;
                        prio[port*32 +: 32] = {16'd0, (`CC_ORIGIN(hdr) ^ node_id) & dim_mask};
                    end
                end
            end
            `CC_ALGO_ECUBE: if (radix_bits != 3'd0) begin
                if (`CC_DEST(hdr) == node_id) begin
                    deliver = 1'b1;
                end else begin
                    port = dor_port(node_id, `CC_DEST(hdr), radix_bits, dim, torus);
                    fwd[port[PW-1:0]] = 1'b1;
                end
            end else begin
                if (x_dest == 16'd0) begin
                    deliver = 1'b1;
                end else begin
                    port = lsb16(x_dest);
                    fwd[port[PW-1:0]] = 1'b1;
                end
            end
        endcase
    end
endmodule
