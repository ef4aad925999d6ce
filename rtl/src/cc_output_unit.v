// Output unit: the port's queue and transmit register. Mirrors routers/output_unit.{h,cpp}: packets
// leave in order of (not-before cycle, priority, arrival order), the head only once its not-before
// cycle has come; a packet leaves the queue when its first flit goes out. Up to NSRC packets may be
// enqueued in one cycle (multicast from every input), in source order; one placed in this cycle may
// leave in this cycle.
`include "cc_defs.vh"
module cc_output_unit #(
    parameter integer QDEPTH = 64,
    parameter integer PF_MAX = 4,
    parameter integer NSRC = 9
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      run,
    input  wire [31:0]               cycle,
    input  wire [6:0]                packet_flits,
    input  wire                      tst_invert_priority,  // test hook: a planted bug
    input  wire [NSRC-1:0]           enq,
    input  wire [NSRC*32-1:0]        enq_not_before,
    input  wire [NSRC*32-1:0]        enq_priority,
    input  wire [NSRC*PF_MAX*64-1:0] enq_flits,
    output reg  [15:0]               occupancy,
    output wire                      waiting,              // head held back by its not-before cycle
    input  wire                      out_ready,
    output reg                       out_valid,
    output reg  [63:0]               out_flit,
    output reg                       started                // a packet started at this edge
);
    // Queue entries, as flat vectors (entry i at [i*W +: W]).
    localparam integer PW = PF_MAX * 64;
    localparam integer SW = $clog2(QDEPTH);
    reg [QDEPTH-1:0]    e_valid;
    reg [QDEPTH*32-1:0] e_nb, e_pri, e_arr;
    reg [QDEPTH*PW-1:0] e_flits;
    reg [31:0]          arrivals;
    reg [PF_MAX*64-1:0] tx_flits;
    reg [6:0]           tx_next;   // index of the flit on the link
    reg [6:0]           tx_len;

    // a leaves before b: (not_before, signed priority, arrival) smaller first.
    function earlier(input [31:0] nb_a, input [31:0] pri_a, input [31:0] arr_a,
                     input [31:0] nb_b, input [31:0] pri_b, input [31:0] arr_b, input invert);
        reg signed [31:0] pa, pb;
        begin
            pa = pri_a;
            pb = pri_b;
            if (nb_a != nb_b) earlier = nb_a < nb_b;
            else if (pa != pb) earlier = invert ? (pa > pb) : (pa < pb);
            else earlier = arr_a < arr_b;
        end
    endfunction

    // The head among stored entries and entries enqueued at this edge; and where the new ones go.
    integer i, s, rank;
    reg                 best_found, best_new;
    reg [31:0]          best_nb, best_pri, best_arr;
    integer             best_index;
    reg [QDEPTH-1:0]    taken;
    reg [NSRC-1:0]      store;        // source s is stored (not sent at once)
    reg [NSRC*SW-1:0]   slot;         // the entry it goes to
    reg [NSRC*32-1:0]   arrival_of;
    reg [31:0]          enqueued;
    always @* begin
        best_found = 1'b0;
        best_new = 1'b0;
        best_nb = 32'd0;
        best_pri = 32'd0;
        best_arr = 32'd0;
        best_index = 0;
        for (i = 0; i < QDEPTH; i = i + 1)
            if (e_valid[i] && (!best_found || earlier(e_nb[i*32 +: 32], e_pri[i*32 +: 32], e_arr[i*32 +: 32],
                                                       best_nb, best_pri, best_arr, tst_invert_priority))) begin
                best_found = 1'b1;
                best_nb = e_nb[i*32 +: 32];
                best_pri = e_pri[i*32 +: 32];
                best_arr = e_arr[i*32 +: 32];
                best_index = i;
            end
        rank = 0;
        for (s = 0; s < NSRC; s = s + 1)
            if (enq[s]) begin
                if (!best_found || earlier(enq_not_before[s*32 +: 32], enq_priority[s*32 +: 32], arrivals + rank,
                                           best_nb, best_pri, best_arr, tst_invert_priority)) begin
                    best_found = 1'b1;
                    best_new = 1'b1;
                    best_nb = enq_not_before[s*32 +: 32];
                    best_pri = enq_priority[s*32 +: 32];
                    best_arr = arrivals + rank;
                    best_index = s;
                end
                rank = rank + 1;
            end
        enqueued = rank;
    end
    assign waiting = run && !out_valid && best_found && best_nb >= cycle;

    // Transmit register after this edge's handshake.
    wire accepted = out_valid && out_ready;
    wire tx_done  = accepted && (tx_next + 7'd1 == tx_len);
    wire tx_idle  = !out_valid || tx_done;
    wire start    = run && tx_idle && best_found && best_nb <= cycle;
    wire [PW-1:0] start_flits = best_new ? enq_flits[best_index*PW +: PW] : e_flits[best_index*PW +: PW];

    // Free entries for the packets that stay, in source order (the entry leaving now is not reused).
    integer f, g, n;
    reg [SW-1:0] free_slot;
    always @* begin
        taken = e_valid;
        slot = {NSRC*SW{1'b0}};
        free_slot = {SW{1'b0}};
        n = 0;
        for (f = 0; f < NSRC; f = f + 1) begin
            store[f] = enq[f] && !(start && best_new && best_index == f);
            arrival_of[f*32 +: 32] = arrivals + n;
            if (enq[f]) n = n + 1;
            if (store[f]) begin
                for (g = QDEPTH - 1; g >= 0; g = g - 1)
                    if (!taken[g]) free_slot = g[SW-1:0];
                slot[f*SW +: SW] = free_slot;
                taken[free_slot] = 1'b1;
            end
        end
    end

    integer a;
    always @(posedge clk) begin
        started <= 1'b0;
        if (rst) begin
            e_valid <= {QDEPTH{1'b0}};
            arrivals <= 32'd0;
            occupancy <= 16'd0;
            out_valid <= 1'b0;
            out_flit <= 64'd0;
            tx_next <= 7'd0;
            tx_len <= 7'd1;
        end else begin
            for (a = 0; a < NSRC; a = a + 1)
                if (store[a]) begin
                    e_valid[slot[a*SW +: SW]] <= 1'b1;
                    e_nb[slot[a*SW +: SW]*32 +: 32] <= enq_not_before[a*32 +: 32];
                    e_pri[slot[a*SW +: SW]*32 +: 32] <= enq_priority[a*32 +: 32];
                    e_arr[slot[a*SW +: SW]*32 +: 32] <= arrival_of[a*32 +: 32];
                    e_flits[slot[a*SW +: SW]*PW +: PW] <= enq_flits[a*PW +: PW];
                end
            arrivals <= arrivals + enqueued;
            if (start && !best_new) e_valid[best_index] <= 1'b0;
            occupancy <= occupancy + enqueued[15:0] - (start ? 16'd1 : 16'd0);

            if (accepted && !tx_done) begin
                tx_next <= tx_next + 7'd1;
                out_flit <= tx_flits[(tx_next + 7'd1) * 64 +: 64];
            end
            if (start) begin
                tx_flits <= start_flits;
                tx_next <= 7'd0;
                tx_len <= `CC_KIND(start_flits) ? 7'd1 : packet_flits;
                out_flit <= start_flits[63:0];
                out_valid <= 1'b1;
                started <= 1'b1;
            end else if (tx_done) begin
                out_valid <= 1'b0;
            end
        end
    end
endmodule
