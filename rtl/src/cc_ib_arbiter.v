// A round-robin arbiter with priorities (combinational), as routers/blocks/round_robin_arbiter.h:
// among the requesters the one with the smallest priority wins; among equals the first at or after
// the pointer, counting in the requesters' logical indices modulo `n` (distinct for distinct
// requesters, so there is never a tie). The pointer is the caller's register.
module cc_ib_arbiter #(
    parameter integer N = 4,    // requesters built
    parameter integer IW = 6    // bits of a logical index, of the pointer and of n
) (
    input  wire [N-1:0]    req,
    input  wire [N*32-1:0] pri,
    input  wire [N*IW-1:0] index,    // each requester's logical index (< n)
    input  wire [IW-1:0]   pointer,  // < n
    input  wire [IW-1:0]   n,
    output reg             valid,
    output reg  [31:0]     winner    // the winning requester (0..N-1)
);
    integer i;
    reg [IW-1:0] distance, best_distance;
    reg [31:0]   best_pri;
    always @* begin
        valid = 1'b0;
        winner = 32'd0;
        best_pri = 32'd0;
        best_distance = {IW{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            distance = index[i*IW +: IW] >= pointer ? index[i*IW +: IW] - pointer : index[i*IW +: IW] + n - pointer;
            if (req[i] && (!valid || pri[i*32 +: 32] < best_pri ||
                           (pri[i*32 +: 32] == best_pri && distance < best_distance))) begin
                valid = 1'b1;
                winner = i;
                best_pri = pri[i*32 +: 32];
                best_distance = distance;
            end
        end
    end
endmodule
