/**
 * @file
 * @brief Internal: what the SDHI common code shares with the internal-DMAC,
 *        SYS-DMAC and PIO parts.
 *
 * The common code owns the command, the status decode and the PIO mover; a
 * DMA backend plugs in through ::mmchal_sdhi_engine. Every function here runs
 * in the context of the backend op that calls it (host lock held by the core).
 */
#ifndef MMCHAL_SDHI_PRIV_H
#define MMCHAL_SDHI_PRIV_H

#include <mmchal/config.h>
#include <mmchal/sdhi.h>

#include "sdhi_regs.h"

/* Helpers with several callers: one copy out of line in a build optimised for size
   (-Os, -Oz: __OPTIMIZE_SIZE__), which would otherwise copy them into each caller; a
   speed build leaves the choice to the compiler (as src/core/hints.h does). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE_SIZE__)
#define SDHI_NOINLINE_ __attribute__((noinline))
#else
#define SDHI_NOINLINE_
#endif

/* Phase bits of ::mmchal_sdhi::state. */
#define SDHI_S_CMD       (1u << 0) /* waiting for the response */
#define SDHI_S_DATA      (1u << 1) /* data phase armed or running */
#define SDHI_S_DMA       (1u << 2) /* the data phase goes through the engine */
#define SDHI_S_ACC_END   (1u << 3) /* access end seen */
#define SDHI_S_DMA_END   (1u << 4) /* engine end seen */
#define SDHI_S_BUSY_WAIT (1u << 5) /* R1b response seen with DAT0 still low */
#define SDHI_S_IDLE_WAIT (1u << 6) /* DMA write: waiting for the bus to go idle */
#define SDHI_S_AUTO_STOP (1u << 7) /* the controller sends CMD12 itself */
#define SDHI_S_R1B       (1u << 8) /* the command is R1b */
#define SDHI_S_READ      (1u << 9) /* data flows card -> memory */

/*
 * Whether a DMA engine is built, and SDHI_S_DMA as the common code tests it: 0 in a
 * library built with the PIO backend alone, where no engine exists (eng is NULL) and
 * no xfer is ever armed for DMA, so that the DMA paths of the common code are left
 * out of such a library.
 */
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC
#define SDHI_DMA_BUILT 1
#else
#define SDHI_DMA_BUILT 0
#endif
#define SDHI_S_DMA_BUILT (SDHI_DMA_BUILT ? SDHI_S_DMA : 0u)

/** DMA engine hooks of a backend. */
struct mmchal_sdhi_engine {
	const char *name;
	/* controller found at probe: reset and mask the engine */
	void (*probe)(struct mmchal_sdhi *s);
	/* declared DMA capabilities */
	void (*caps)(struct mmchal_sdhi *s, struct mmchal_dma_caps *dma);
	/* check the segments of a DMA plan: 0 or MMCHAL_EINVAL */
	int (*check)(struct mmchal_sdhi *s, const struct mmchal_xfer *x);
	/* before the command goes out: 0 = DMA, 1 = serve this xfer by PIO, <0 error */
	int (*arm)(struct mmchal_sdhi *s, const struct mmchal_xfer *x);
	/* after a good response of a DMA data command: start moving */
	void (*go)(struct mmchal_sdhi *s);
	/* data phase in progress: 1 when the engine has finished, 0 not yet, <0 its error */
	int (*poll)(struct mmchal_sdhi *s);
	/* stop the engine and reset its channel */
	void (*stop)(struct mmchal_sdhi *s);
};

extern const struct mmchal_sdhi_engine mmchal_sdhi_idmac_engine_;
extern const struct mmchal_sdhi_engine mmchal_sdhi_sysdmac_engine_;

/* The internal-DMAC hooks (the entries of mmchal_sdhi_idmac_engine_). */
void mmchal_sdhi_idmac_probe_(struct mmchal_sdhi *s);
void mmchal_sdhi_idmac_caps_(struct mmchal_sdhi *s, struct mmchal_dma_caps *dma);
int mmchal_sdhi_idmac_check_(struct mmchal_sdhi *s, const struct mmchal_xfer *x);
int mmchal_sdhi_idmac_arm_(struct mmchal_sdhi *s, const struct mmchal_xfer *x);
void mmchal_sdhi_idmac_go_(struct mmchal_sdhi *s);
int mmchal_sdhi_idmac_poll_(struct mmchal_sdhi *s);
void mmchal_sdhi_idmac_stop_(struct mmchal_sdhi *s);

/*
 * The engine hook @p hook of @p s, and whether @p s has an engine. In a library whose
 * only SDHI backend is the internal-DMAC one, mmchal_sdhi_idmac_init() is the only
 * caller of mmchal_sdhi_setup_(): every instance has that engine, so its hooks are
 * called directly (no table load, no NULL test) with the same arguments in the same
 * places, and no table is built (::mmchal_sdhi::eng stays NULL there and nothing reads
 * it). Any other library reads the table.
 */
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC && !MMCHAL_WITH_BACKEND_SDHI_SYSDMAC && !MMCHAL_WITH_BACKEND_PIO
#define SDHI_ENG_IDMAC_ONLY 1
#define SDHI_ENG_(s, hook)  mmchal_sdhi_idmac_##hook##_
#define SDHI_HAS_ENG_(s)    true
#else
#define SDHI_ENG_IDMAC_ONLY 0
#define SDHI_ENG_(s, hook)  ((s)->eng->hook)
#define SDHI_HAS_ENG_(s)    ((s)->eng != NULL)
#endif

/*
 * Whether @p s is an internal-DMAC instance (::mmchal_sdhi::kind, which only
 * mmchal_sdhi_setup_() sets, from the init function that calls it): never in a library
 * without that backend, always where it is the only one.
 */
#if !MMCHAL_WITH_BACKEND_SDHI_IDMAC
#define SDHI_IS_IDMAC_(s) false
#elif SDHI_ENG_IDMAC_ONLY
#define SDHI_IS_IDMAC_(s) true
#else
#define SDHI_IS_IDMAC_(s) ((s)->kind == MMCHAL_SDHI_IDMAC)
#endif

/* The common ops; each backend hands out a table with its own name. */
int mmchal_sdhi_probe_(void *ctx);
int mmchal_sdhi_get_caps_(void *ctx, struct mmchal_host_caps *host, struct mmchal_dma_caps *dma);
int mmchal_sdhi_set_ios_(void *ctx, const struct mmchal_ios *ios);
int mmchal_sdhi_start_(void *ctx, const struct mmchal_xfer *xfer);
int mmchal_sdhi_handle_irq_(void *ctx, uint32_t *events);
int mmchal_sdhi_abort_(void *ctx);
int mmchal_sdhi_card_busy_(void *ctx);
int mmchal_sdhi_get_cd_(void *ctx);
int mmchal_sdhi_get_ro_(void *ctx);
int mmchal_sdhi_blocks_done_(void *ctx, uint32_t *blocks);
/* The SDIO card interrupt: no op in a library built without SDIO functions
   (config.h), whose controllers keep it masked as the reset leaves it. */
#if MMCHAL_WITH_SDIO
int mmchal_sdhi_enable_sdio_irq_(void *ctx, bool enable);
#define SDHI_SDIO_IRQ_OP_ mmchal_sdhi_enable_sdio_irq_
#else
#define SDHI_SDIO_IRQ_OP_ NULL
#endif

/* The backend ops of every SDHI backend: all three share the common ops and
 * differ only in their name (the engine behind them is chosen at setup). */
#define SDHI_BACKEND_OPS_(backend_name)                                                        \
	{                                                                                      \
		.name = (backend_name), .probe = mmchal_sdhi_probe_,                           \
		.get_caps = mmchal_sdhi_get_caps_, .set_ios = mmchal_sdhi_set_ios_,            \
		.start = mmchal_sdhi_start_, .handle_irq = mmchal_sdhi_handle_irq_,            \
		.abort = mmchal_sdhi_abort_, .card_busy = mmchal_sdhi_card_busy_,              \
		.get_cd = mmchal_sdhi_get_cd_, .get_ro = mmchal_sdhi_get_ro_,                  \
		.blocks_done = mmchal_sdhi_blocks_done_, .enable_sdio_irq = SDHI_SDIO_IRQ_OP_, \
	}

/* Configuration check and state set-up shared by the init functions. */
int mmchal_sdhi_setup_(struct mmchal_sdhi *s, const struct mmchal_sdhi_cfg *cfg,
		       enum mmchal_sdhi_kind kind, const struct mmchal_sdhi_engine *eng,
		       const struct mmchal_backend_ops *ops, struct mmchal_backend *out);

/* CC_EXT_MODE DMA bit and the buffer interrupts, written only when they change. */
void mmchal_sdhi_dma_mode_(struct mmchal_sdhi *s, bool dma);

/* PIO mover: one block per call. */
int mmchal_sdhi_pio_block_(struct mmchal_sdhi *s, bool read);

#endif /* MMCHAL_SDHI_PRIV_H */
