/*
 * Shared by the footprint images (tools/footprint.sh): inputs the compiler
 * cannot see through, so that every call below stays in the image, the
 * entry point the linker keeps, and the part every firmware does the same
 * way: a polled bare-metal port, the host core over one backend and the card
 * layer on top of it.
 */
#ifndef MMCHAL_FOOTPRINT_FP_H
#define MMCHAL_FOOTPRINT_FP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/mmchal.h>

/* Read and written through volatile: never constant-folded. */
extern volatile uintptr_t fp_in;
extern volatile intptr_t fp_out;

#define FP_PTR(type) ((type)(void *)fp_in)
#define FP_U32()     ((uint32_t)fp_in)

/* Each configuration's main: what a firmware of that kind calls. */
int fp_main(void);

/* The port of a polled bare-metal firmware (docs/porting.md). */
extern const struct mmchal_port fp_port;

/* An SDHI configuration as a board file fills it in: the register window
   (MMIO, bus_shift from the SoC entry), the SoC entry (the board's own
   initialiser from <mmchal/sdhi_socs.h>, or one found by compatible), the
   controller clock and the board's bus capabilities; polled. */
int fp_sdhi_cfg(struct mmchal_sdhi_cfg *cfg, const struct mmchal_sdhi_soc *soc);

/* The host fp_card_io() brings up. */
extern struct mmchal_host fp_host;

/* Bring up the host over @hc's backend, identify the card, read one block
   and, when @write, write it back: what every firmware configuration does.
   The host, card, register buffer and data block are the caller's. */
int fp_card_io(struct mmchal_host_cfg *hc, bool write);

#endif /* MMCHAL_FOOTPRINT_FP_H */
