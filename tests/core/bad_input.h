/*
 * Bad input at every public entry: the row format and the guarded arena.
 *
 * Every row names one public function (or one op of a public ops table),
 * builds the caller objects the call needs inside the arena, arms the
 * arena (bi_arm() takes a snapshot) and makes exactly one call with one bad
 * input. The runner then asserts the exact return value and that no byte of
 * the arena changed outside the ranges the row declared writable with
 * bi_writable(): the guard bytes around every object, every other object,
 * and the objects a failed call must leave alone. Caller objects such as
 * spies of the backend and port ops live in the arena too, so a call that
 * reaches an op it should not reach changes a counter and fails the row.
 *
 * A function that cannot be checked at its entry (an inline wrapper whose
 * documented contract is a checked, non-NULL table, a backend op the core
 * calls only on a probed instance) gets a precondition row: BI_PRE() with the
 * reason. tools/check_bad_input.cmake fails the build's tests when a public
 * function has no row at all.
 *
 * Portable: static storage only, <string.h> mem* functions.
 */
#ifndef TESTS_CORE_BAD_INPUT_H
#define TESTS_CORE_BAD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/mmchal.h>

struct bi_row {
	const char *fn;   /* the public function (or "table.op") */
	const char *what; /* the bad input */
	int (*run)(void); /* set up, bi_arm(), one call; returns what the call returned */
	int expect;       /* the exact return value */
	const char *pre;  /* precondition row: why the entry cannot check this */
	size_t exists;    /* sizeof(&fn): the name is a declared symbol */
};

/* A call row. */
#define BI_ROW(f, w, r, e)                      \
	{                                       \
#f, w, r, e, NULL, sizeof(&(f)) \
	}
/* A row for one op of a public ops table. */
#define BI_OP(tbl, op, w, r, e)                               \
	{                                                     \
#tbl "." #op, w, r, e, NULL, sizeof((tbl).op) \
	}
/* A precondition row: the function is not checked for this input, and why. */
#define BI_PRE(f, why)                                         \
	{                                                      \
#f, "precondition", NULL, 0, why, sizeof(&(f)) \
	}
/* A precondition row for an ops-table op. */
#define BI_OP_PRE(tbl, op, why)                                              \
	{                                                                    \
#tbl "." #op, "precondition", NULL, 0, why, sizeof((tbl).op) \
	}

/* Bytes of caller storage the rows may use (objects and guards). */
#define BI_ARENA_SIZE (160u * 1024u)
/* Guard bytes before and after every object. */
#define BI_GUARD      32u
/* Fill of every arena byte that no object owns. */
#define BI_FILL       0xa5u

/* A zeroed object of @p size bytes, 16-byte aligned, with guards around it. */
void *bi_obj(size_t size);
/* As bi_obj(), but the object starts @p misalign bytes past a 16-byte boundary. */
void *bi_obj_at(size_t size, size_t misalign);
/* A zeroed object of type T. */
#define BI_NEW(T) ((T *)bi_obj(sizeof(T)))
/* The call may change [p, p + size) (documented outputs of this call). */
void bi_writable(const void *p, size_t size);
/* Snapshot the arena: the call under test follows. */
void bi_arm(void);
/* 0 when @p s is exactly @p want, else 1 (for string-returning functions). */
int bi_str(const char *s, const char *want);

/* Ops tables and objects shared by the area files. */
struct bi_spy {
	uint32_t calls[16]; /* per op, see enum bi_spy_op */
	uint32_t events;    /* what handle_irq reports */
};
enum bi_spy_op {
	BI_SPY_PROBE,
	BI_SPY_CAPS,
	BI_SPY_IOS,
	BI_SPY_START,
	BI_SPY_IRQ,
	BI_SPY_ABORT,
	BI_SPY_BUSY,
	BI_SPY_CD,
	BI_SPY_RO,
	BI_SPY_RESET,
	BI_SPY_TUNE,
	BI_SPY_SDIO,
	BI_SPY_IOMMU_MAP,
	BI_SPY_IOMMU_UNMAP,
	BI_SPY_IOMMU_FLUSH,
};
/* A backend whose every op counts its calls in the ::bi_spy given as ctx. */
extern const struct mmchal_backend_ops bi_spy_backend_ops;
/* The same without any optional op. */
extern const struct mmchal_backend_ops bi_spy_backend_min_ops;
/* A port with a clock, a delay and a lock pair that write nothing. */
extern const struct mmchal_port_ops bi_port_ops;
/* An IOMMU with 4 KiB pages that can merge, aperture 1 MiB..1 GiB; ctx a ::bi_spy. */
extern const struct mmchal_iommu_ops bi_iommu_ops;
/* A DMA channel that accepts everything (ctx a ::bi_spy). */
extern const struct mmchal_dma_chan_ops bi_chan_ops;
/* Limits derived for a PIO host and an SD card, in the arena (bad_input_limits.c). */
struct mmchal_limits *bi_good_limits(void);

/* The rows of each area, and their counts. */
extern const struct bi_row bi_rows_core[];
extern const size_t bi_nrows_core;
extern const struct bi_row bi_rows_limits[];
extern const size_t bi_nrows_limits;
extern const struct bi_row bi_rows_dma_plan[];
extern const size_t bi_nrows_dma_plan;
extern const struct bi_row bi_rows_iova[];
extern const size_t bi_nrows_iova;
extern const struct bi_row bi_rows_iommu[];
extern const size_t bi_nrows_iommu;
extern const struct bi_row bi_rows_bounce[];
extern const size_t bi_nrows_bounce;
extern const struct bi_row bi_rows_host[];
extern const size_t bi_nrows_host;
extern const struct bi_row bi_rows_card[];
extern const size_t bi_nrows_card;
extern const struct bi_row bi_rows_backends[];
extern const size_t bi_nrows_backends;
extern const struct bi_row bi_rows_sdhi_boot[];
extern const size_t bi_nrows_sdhi_boot;
extern const struct bi_row bi_rows_dt[];
extern const size_t bi_nrows_dt;
/* The request entries' command and the host ops' value checks (bad_input_request.c). */
extern const struct bi_row bi_rows_request[];
extern const size_t bi_nrows_request;

/* The SDHI rows' configuration on a spy bus (bad_input_backends.c), for the boot
   reader's rows; built only with an SDHI backend. */
struct mmchal_sdhi_cfg *bi_sdhi_cfg(const char *compat);
#define BI_SDHI_GEN3 "renesas,rcar-gen3-sdhi"
#define BI_SDHI_GEN2 "renesas,rcar-gen2-sdhi"

#endif /* TESTS_CORE_BAD_INPUT_H */
