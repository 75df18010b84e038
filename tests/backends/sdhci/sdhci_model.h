/*
 * The register model of the SDHCI backend tests: a controller behind the bus
 * accessor that completes commands at once (or raises the errors it is told
 * to), moves PIO data between the data port and m.card, and keeps DMA memory
 * in m.mem (device address = index); a port whose clock advances 1 us per
 * reading unless a test sets another step; setup helpers.
 */
#ifndef MMCHAL_TESTS_SDHCI_MODEL_H
#define MMCHAL_TESTS_SDHCI_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/sdhci.h>

struct model {
	uint16_t version;
	uint32_t caps0, caps1, present;
	uint8_t r8[256]; /* plain registers, little-endian */
	uint16_t norm, err;
	uint32_t resp[4];
	/* reaction to the next command */
	uint16_t cmd_err; /* error bits to raise instead of command complete */
	bool hold_xfer;   /* no transfer complete (data or busy) by itself */
	bool reset_stuck, clock_stuck, power_drops, inhibit_stuck;
	bool one_block;             /* PIO: the buffer holds one block; ready drops after each */
	unsigned int inhibit_reads; /* readings of Present State that show both inhibits */
	uint16_t norm_after_reset;  /* normal status a reset of all raises (card insertion) */
	uint16_t hc_log[8];         /* the writes to Host Control (power byte included) */
	unsigned int nhc;
	uint32_t port_word;        /* the last word written to the data port */
	unsigned int port_reads;   /* readings of the data port */
	uint16_t norm_stuck;       /* normal status that reads set whatever is written */
	unsigned int status_reads; /* readings of the interrupt status */
	uint8_t resets[16];
	unsigned int nresets, ncmds, sdma_writes;
	uint32_t acked; /* every bit ever written 1 to the interrupt status */
	uint16_t last_cmd, last_mode, blkcnt;
	/* PIO */
	uint8_t card[4096];
	uint32_t pos, limit, blksz;
	bool reading, writing;
	/* DMA memory: device address = index */
	uint8_t mem[16384];
};

#define CAPS_QEMU_V3 0x157834b4u /* 52 MHz base and timeout clock, SDMA, ADMA2, 64-bit */
#define CAPS_ZYNQ    0x69ec0080u /* no base clock, 8-bit, SDMA, ADMA2, 32-bit */
#define TABLE_DMA    0x1000u

extern struct model m;
extern struct mmchal_sdhci h;
extern struct mmchal_backend be;
extern const struct mmchal_port port;
/* port: the clock and its step per reading (model_reset: 1 us), the last
   delay_us argument, the cache cleans seen */
extern uint64_t clock_ns;
extern uint64_t clock_step_ns;
extern uint32_t last_delay_us;
extern unsigned int cleans;
extern const void *clean_addr;
extern size_t clean_len;

/* Little-endian access to the plain registers of the model. */
uint16_t get16(uint32_t off);
void put16(uint32_t off, uint16_t v);
uint32_t get32(uint32_t off);

/* A configuration over the model and the port, with an 8-entry ADMA2 table at
   m.mem + TABLE_DMA. */
struct mmchal_sdhci_cfg base_cfg(void);
/* A fresh model of @p version and @p caps0, a card inserted, unprotected. */
void model_reset(uint16_t version, uint32_t caps0);
/* mmchal_sdhci_init() and probe; the first error. */
int up(const struct mmchal_sdhci_cfg *c);
/* model_reset() and up() of base_cfg() with @p dma, asserted. */
void up_ok(uint16_t version, uint32_t caps0, enum mmchal_sdhci_dma dma);
/* set_ios: power on at @p hz and @p w. */
int power_on(uint32_t hz, enum mmchal_bus_width w);
/* handle_irq four times (asserting 0); the OR of the events. */
uint32_t model_poll(void);

#endif
