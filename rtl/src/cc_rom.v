// The router's ROMs, loaded once from the memory files the C++ model writes at build time
// (plusargs +cubecast_mnb_rom=FILE +cubecast_te_rom=FILE), with one read port per source:
//   mnb_rom  paper 003 §2 schedule: row 2^dim - 2 + x holds, per port, the slot of x's child there
//   te_pos   paper 003 §4 Fig. 6: the position of x in its link's sending order
module cc_rom #(
    parameter integer D_MAX = 8,
    parameter integer NSRC = 9
) (
    input  wire [NSRC*32-1:0]       mnb_addr,
    output wire [NSRC*D_MAX*16-1:0] mnb_row,
    input  wire [NSRC*D_MAX-1:0]    te_addr,
    output wire [NSRC*16-1:0]       te_position
);
    localparam integer ROM_ROWS = (1 << (D_MAX + 1)) - 2;
    localparam integer AW = $clog2(ROM_ROWS);
    reg [D_MAX*16-1:0] mnb_rom [0:ROM_ROWS-1];
    reg [15:0]         te_pos  [0:(1 << D_MAX)-1];
`ifdef SYNTHESIS
    // Synthesis reads the images from the working directory (rtl/synth.sh generates them there).
    initial begin
        $readmemh("mnb_rom.hex", mnb_rom);
        $readmemh("te_rom.hex", te_pos);
    end
`elsif VERILATOR
    // Verilated, the same files (the same plusargs), read once a process by the C++ model and handed
    // to every router row by row (routers/cores/rtl_rom_dpi.cpp): Verilator's $readmemh parses the
    // whole file again for each router (nearly half of a 512-router run's time).
    import "DPI-C" function void cc_rom_mnb_row(input int d_max, input int row, output bit [D_MAX*16-1:0] value);
    import "DPI-C" function void cc_rom_te_position(input int d_max, input int x, output bit [15:0] value);
    /* verilator tracing_off */  // (the load's counter is no part of the router's state)
    integer rom_row;
    /* verilator tracing_on */
    initial begin
        for (rom_row = 0; rom_row < ROM_ROWS; rom_row = rom_row + 1) cc_rom_mnb_row(D_MAX, rom_row, mnb_rom[rom_row]);
        for (rom_row = 0; rom_row < (1 << D_MAX); rom_row = rom_row + 1) cc_rom_te_position(D_MAX, rom_row, te_pos[rom_row]);
    end
`else
    reg [8*256-1:0]    rom_file;
    initial begin
        if ($value$plusargs("cubecast_mnb_rom=%s", rom_file)) $readmemh(rom_file, mnb_rom);
        if ($value$plusargs("cubecast_te_rom=%s", rom_file)) $readmemh(rom_file, te_pos);
    end
`endif
    genvar s;
    generate
        for (s = 0; s < NSRC; s = s + 1) begin : g_port
            // For dim <= D_MAX the address 2^dim - 2 + x is below ROM_ROWS: its low AW bits suffice.
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] addr = mnb_addr[s*32 +: 32];
            /* verilator lint_on UNUSEDSIGNAL */
            assign mnb_row[s*D_MAX*16 +: D_MAX*16] = mnb_rom[addr[AW-1:0]];
            assign te_position[s*16 +: 16] = te_pos[te_addr[s*D_MAX +: D_MAX]];
        end
    endgenerate
endmodule
