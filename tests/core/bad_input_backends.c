/*
 * Bad-input rows: the mock backend (mock.h) and its ops table, the SDHI
 * SoC table and init functions (sdhi.h), the SDHCI backend (sdhci.h) and its
 * ops table. Register windows are spy buses whose access counters live in
 * the arena: a refused call that touched a register fails its row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

/* A register window that counts every access and reads as 0. */
struct spy_bus {
	uint32_t reads;
	uint32_t writes;
};

static uint16_t sb_rd16(void *ctx, uint32_t off)
{
	(void)off;
	((struct spy_bus *)ctx)->reads++;
	return 0;
}

static void sb_wr16(void *ctx, uint32_t off, uint16_t val)
{
	(void)off;
	(void)val;
	((struct spy_bus *)ctx)->writes++;
}

static uint32_t sb_rd32(void *ctx, uint32_t off)
{
	(void)off;
	((struct spy_bus *)ctx)->reads++;
	return 0;
}

static void sb_wr32(void *ctx, uint32_t off, uint32_t val)
{
	(void)off;
	(void)val;
	((struct spy_bus *)ctx)->writes++;
}

static const struct mmchal_bus_ops spy_bus_ops = {
	.read16 = sb_rd16,
	.write16 = sb_wr16,
	.read32 = sb_rd32,
	.write32 = sb_wr32,
};

static int spy_bus_shift(void)
{
	struct mmchal_bus *b = BI_NEW(struct mmchal_bus);

	b->ops = &spy_bus_ops;
	b->ctx = BI_NEW(struct spy_bus);
	b->bus_shift = 3;
	bi_arm();
	return mmchal_bus_check(b);
}

#if MMCHAL_WITH_BACKEND_MOCK

/* ------------------------------------------------------------------ mock.h */

static struct mmchal_mock_cfg *mock_cfg(void)
{
	struct mmchal_mock_cfg *c = BI_NEW(struct mmchal_mock_cfg);

	c->card = MMCHAL_MOCK_EMMC;
	c->image_size = 4096;
	c->image = bi_obj(4096);
	return c;
}

static struct mmchal_mock *mock_live(void)
{
	struct mmchal_mock *m = BI_NEW(struct mmchal_mock);

	if (mmchal_mock_init(m, mock_cfg()) != 0)
		fail_msg("bad_input: mock fixture");
	return m;
}

static int minit_with(const struct mmchal_mock_cfg *c)
{
	struct mmchal_mock *m = BI_NEW(struct mmchal_mock);

	memset(m, 0x3c, sizeof(*m));
	bi_arm();
	return mmchal_mock_init(m, c);
}

static int minit_null(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	bi_arm();
	return mmchal_mock_init(NULL, c);
}

static int minit_null_cfg(void)
{
	return minit_with(NULL);
}

static int minit_card_enum(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->card = (enum mmchal_mock_card)4;
	return minit_with(c);
}

static int minit_no_image(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->image = NULL;
	return minit_with(c);
}

static int minit_image_size(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->image_size = 4095;
	return minit_with(c);
}

static int minit_image_max(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->image_size = UINT64_MAX & ~(uint64_t)511u;
	return minit_with(c);
}

static int minit_sdhc_small(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->card = MMCHAL_MOCK_SDHC; /* needs 512 KiB units */
	return minit_with(c);
}

static int minit_log_len0(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->log = BI_NEW(struct mmchal_mock_log_entry);
	return minit_with(c);
}

static int minit_dma_segs0(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->dma.kind = MMCHAL_DMA_INTERNAL;
	c->dma.dir[0].max_seg_size = 4096;
	c->dma.dir[1].max_seg_size = 4096;
	c->dma.dir[1].max_segs = 1;
	return minit_with(c);
}

static int minit_dma_kind(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->dma.kind = (enum mmchal_dma_kind)9;
	return minit_with(c);
}

static int minit_sdio_funcs(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->card = MMCHAL_MOCK_SDIO;
	c->image = NULL;
	c->image_size = 0;
	c->sdio_functions = 8;
	return minit_with(c);
}

static int minit_illegal_error(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();

	c->illegal_error = 5;
	return minit_with(c);
}

static int mbackend_null(void)
{
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	bi_arm();
	return mmchal_mock_backend(NULL, be);
}

static int mbackend_null_out(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_backend(m, NULL);
}

static int mtrigger_null(void)
{
	bi_arm();
	mmchal_mock_trigger(NULL);
	return 0;
}

static int mirq_pending_null(void)
{
	bi_arm();
	return (int)mmchal_mock_irq_pending(NULL);
}

static int mbusy_null(void)
{
	bi_arm();
	return (int)mmchal_mock_busy(NULL);
}

static int mlatency_null(void)
{
	bi_arm();
	mmchal_mock_set_latency(NULL, UINT32_MAX, UINT32_MAX, UINT32_MAX, true);
	return 0;
}

static int mfail_cmd_null(void)
{
	bi_arm();
	return mmchal_mock_fail_cmd(NULL, 17, MMCHAL_EIO, 1);
}

static int mfail_cmd_opcode(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_cmd(m, 64, MMCHAL_EIO, 1);
}

static int mfail_cmd_positive(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_cmd(m, 17, 1, 0);
}

static int mfail_data_null(void)
{
	bi_arm();
	return mmchal_mock_fail_data(NULL, MMCHAL_MOCK_DATA_CRC, 0, 1);
}

static int mfail_data_enum(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_data(m, (enum mmchal_mock_data_fault)5, 0, 1);
}

static int mfail_data_negative(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_data(m, (enum mmchal_mock_data_fault) - 1, 0, 1);
}

static int mfail_op_null(void)
{
	bi_arm();
	return mmchal_mock_fail_op(NULL, MMCHAL_MOCK_OP_START, MMCHAL_EIO, 1);
}

static int mfail_op_enum(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_op(m, (enum mmchal_mock_op)MMCHAL_MOCK_OP_COUNT, MMCHAL_EIO, 1);
}

static int mfail_op_positive(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_fail_op(m, MMCHAL_MOCK_OP_ABORT, 3, 1);
}

static int mpresent_null(void)
{
	bi_arm();
	mmchal_mock_set_present(NULL, false);
	return 0;
}

static int mstuck_null(void)
{
	bi_arm();
	mmchal_mock_set_busy_stuck(NULL, true);
	return 0;
}

static int mwp_null(void)
{
	bi_arm();
	mmchal_mock_set_write_protect(NULL, true);
	return 0;
}

static int mclear_null(void)
{
	bi_arm();
	mmchal_mock_clear_faults(NULL);
	return 0;
}

static int msdio_null(void)
{
	bi_arm();
	return mmchal_mock_sdio_irq(NULL, 2);
}

static int msdio_not_sdio(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_sdio_irq(m, 2);
}

static int msdio_mask(void)
{
	struct mmchal_mock_cfg *c = mock_cfg();
	struct mmchal_mock *m = BI_NEW(struct mmchal_mock);

	c->card = MMCHAL_MOCK_SDIO;
	c->image = NULL;
	c->image_size = 0;
	c->sdio_functions = 7;
	if (mmchal_mock_init(m, c) != 0)
		fail_msg("bad_input: SDIO mock fixture");
	bi_arm();
	return mmchal_mock_sdio_irq(m, 0x01); /* function 0 has no interrupt bit */
}

static int mstatus_null(void)
{
	struct mmchal_mock_status *st = BI_NEW(struct mmchal_mock_status);

	bi_arm();
	return mmchal_mock_status(NULL, st);
}

static int mstatus_null_out(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_status(m, NULL);
}

static int mstats_null(void)
{
	bi_arm();
	return mmchal_mock_stats(NULL) == NULL ? 0 : 1;
}

static int mlog_count_null(void)
{
	bi_arm();
	return (int)mmchal_mock_log_count(NULL);
}

static int mlog_get_null(void)
{
	bi_arm();
	return mmchal_mock_log_get(NULL, 0) == NULL ? 0 : 1;
}

static int mlog_get_beyond(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_log_get(m, UINT32_MAX) == NULL ? 0 : 1;
}

static int mlog_get_uninit(void)
{
	struct mmchal_mock *m = BI_NEW(struct mmchal_mock);

	bi_arm();
	return mmchal_mock_log_get(m, 0) == NULL ? 0 : 1;
}

static int mlog_last_null(void)
{
	bi_arm();
	return mmchal_mock_log_last(NULL) == NULL ? 0 : 1;
}

static int mlog_last_empty(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_log_last(m) == NULL ? 0 : 1;
}

static int mlog_clear_null(void)
{
	bi_arm();
	mmchal_mock_log_clear(NULL);
	return 0;
}

/* The ops table, driven directly with bad arguments. */
static int mop_probe_null(void)
{
	bi_arm();
	return mmchal_mock_ops.probe(NULL);
}

static int mop_caps_null(void)
{
	struct mmchal_mock *m = mock_live();
	struct mmchal_dma_caps *d = BI_NEW(struct mmchal_dma_caps);

	bi_arm();
	return mmchal_mock_ops.get_caps(m, NULL, d);
}

static int mop_set_ios_null(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_ops.set_ios(m, NULL);
}

static int mop_set_ios_width(void)
{
	struct mmchal_mock *m = mock_live();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = (enum mmchal_bus_width)3;
	bi_arm();
	return mmchal_mock_ops.set_ios(m, ios);
}

static int mop_start_null(void)
{
	struct mmchal_mock *m = mock_live();

	bi_writable(&m->stats, sizeof(m->stats)); /* a refused start is counted */
	bi_arm();
	return mmchal_mock_ops.start(m, NULL);
}

static int mop_start_no_cmd(void)
{
	struct mmchal_mock *m = mock_live();
	struct mmchal_xfer *x = BI_NEW(struct mmchal_xfer);

	bi_writable(&m->stats, sizeof(m->stats));
	bi_arm();
	return mmchal_mock_ops.start(m, x);
}

static int mop_irq_null(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_ops.handle_irq(m, NULL);
}

static int mop_abort_null(void)
{
	bi_arm();
	return mmchal_mock_ops.abort(NULL);
}

static int mop_busy_null(void)
{
	bi_arm();
	return mmchal_mock_ops.card_busy(NULL);
}

static int mop_cd_null(void)
{
	bi_arm();
	return mmchal_mock_ops.get_cd(NULL);
}

static int mop_ro_null(void)
{
	bi_arm();
	return mmchal_mock_ops.get_ro(NULL);
}

static int mop_reset_null(void)
{
	bi_arm();
	return mmchal_mock_ops.hw_reset(NULL);
}

static int mop_tuning_null(void)
{
	bi_arm();
	return mmchal_mock_ops.execute_tuning(NULL, 21);
}

static int mop_blocks_null(void)
{
	struct mmchal_mock *m = mock_live();

	bi_arm();
	return mmchal_mock_ops.blocks_done(m, NULL);
}

static int mop_sdio_null(void)
{
	bi_arm();
	return mmchal_mock_ops.enable_sdio_irq(NULL, true);
}

#endif /* MMCHAL_WITH_BACKEND_MOCK */

/* ------------------------------------------------------------------ sdhi.h */

#if MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO

static int soc_lookup_null(void)
{
	bi_arm();
	return mmchal_sdhi_soc_lookup(NULL) == NULL ? 0 : 1;
}

static int soc_lookup_unknown(void)
{
	bi_arm();
	return mmchal_sdhi_soc_lookup("renesas,sdhi-r8a7795x") == NULL &&
			       mmchal_sdhi_soc_lookup("") == NULL
		       ? 0
		       : 1;
}

static int soc_table_null(void)
{
	size_t n = 0;

	bi_arm();
	return mmchal_sdhi_soc_table(NULL) == mmchal_sdhi_soc_table(&n) && n > 0 ? 0 : 1;
}

static int bus_shift_null(void)
{
	bi_arm();
	return mmchal_sdhi_bus_shift(NULL, 0x200);
}

static int bus_shift_zero(void)
{
	bi_arm();
	return mmchal_sdhi_bus_shift(mmchal_sdhi_soc_table(NULL), 0);
}

static int rev_flags_range(void)
{
	bi_arm();
	return (int)(mmchal_sdhi_rev_flags((enum mmchal_sdhi_rev)99) |
		     mmchal_sdhi_rev_flags((enum mmchal_sdhi_rev) - 1));
}

static int iommu_usable_null(void)
{
	bi_arm();
	return mmchal_sdhi_iommu_usable(NULL, (enum mmchal_sdhi_rev)99) ? 0 : 1;
}

/* Configuration of a Gen3 SDHI (internal DMAC) on a spy bus. */
/* An SDHI configuration on a spy bus (bus_shift 2, 200 MHz) with the SoC entry of
   @p compat; shared with bad_input_sdhi_boot.c. */
struct mmchal_sdhi_cfg *bi_sdhi_cfg(const char *compat)
{
	struct mmchal_sdhi_cfg *c = BI_NEW(struct mmchal_sdhi_cfg);

	c->bus.ops = &spy_bus_ops;
	c->bus.ctx = BI_NEW(struct spy_bus);
	c->bus.bus_shift = 2;
	c->soc = mmchal_sdhi_soc_lookup(compat);
	c->clk_hz = 200000000u;
	if (!c->soc)
		fail_msg("bad_input: no SoC entry %s", compat);
	return c;
}

#define GEN3 BI_SDHI_GEN3
#define GEN2 BI_SDHI_GEN2

typedef int (*sdhi_init_fn)(struct mmchal_sdhi *, const struct mmchal_sdhi_cfg *,
			    struct mmchal_backend *);

static int sdhi_init_with(sdhi_init_fn fn, const struct mmchal_sdhi_cfg *c)
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	memset(s, 0x3c, sizeof(*s));
	memset(be, 0x3c, sizeof(*be));
	bi_arm();
	return fn(s, c, be);
}

/* A backend this library has, and a configuration it accepts but for the one
   field a row breaks: PIO where built (it takes any SoC), else the internal
   DMAC on a Gen3 entry, else the SYS-DMAC on a Gen2 entry with both channels. */
static sdhi_init_fn any_init(void)
{
#if MMCHAL_WITH_BACKEND_PIO
	return mmchal_sdhi_pio_init;
#elif MMCHAL_WITH_BACKEND_SDHI_IDMAC
	return mmchal_sdhi_idmac_init;
#else
	return mmchal_sdhi_sysdmac_init;
#endif
}

static struct mmchal_sdhi_cfg *any_cfg(void)
{
#if MMCHAL_WITH_BACKEND_PIO || MMCHAL_WITH_BACKEND_SDHI_IDMAC
	return bi_sdhi_cfg(GEN3);
#else
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN2);

	c->chan[0].ops = &bi_chan_ops;
	c->chan[1].ops = &bi_chan_ops;
	return c;
#endif
}

static int sdhi_null_sdhi(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN3);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	bi_arm();
	return mmchal_sdhi_init(NULL, c, be);
}

/* The dispatcher itself refuses NULL storage, before it chooses a backend. */
static int sdhi_init_null_out(void)
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN3);

	bi_arm();
	return mmchal_sdhi_init(s, c, NULL);
}

static int sdhi_null_cfg(void)
{
	return sdhi_init_with(mmchal_sdhi_init, NULL);
}

static int sdhi_null_out(void)
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);
	struct mmchal_sdhi_cfg *c = any_cfg();

	bi_arm();
	return any_init()(s, c, NULL);
}

static int sdhi_no_soc(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN3);

	c->soc = NULL;
	return sdhi_init_with(mmchal_sdhi_init, c);
}

static int sdhi_clk0(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();

	c->clk_hz = 0;
	return sdhi_init_with(any_init(), c);
}

static int sdhi_bus_bad(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();

	c->bus.bus_shift = 3;
	return sdhi_init_with(any_init(), c);
}

static int sdhi_bus_no_ops(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();

	c->bus.ops = NULL;
	return sdhi_init_with(any_init(), c);
}

static int sdhi_port_width(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();

	c->port_width = 3;
	return sdhi_init_with(any_init(), c);
}

static int sdhi_port_bad(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	c->port = p; /* no ops */
	return sdhi_init_with(any_init(), c);
}

static int sdhi_rev(void)
{
	struct mmchal_sdhi_cfg *c = any_cfg();

	c->rev = (enum mmchal_sdhi_rev)6;
	return sdhi_init_with(any_init(), c);
}

static int sdhi_kind(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN3);
	struct mmchal_sdhi_soc *soc = BI_NEW(struct mmchal_sdhi_soc);

	*soc = *c->soc;
	soc->kind = (enum mmchal_sdhi_kind)7;
	c->soc = soc;
	return sdhi_init_with(mmchal_sdhi_init, c);
}

#if MMCHAL_WITH_BACKEND_SDHI_IDMAC
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
/* (a library with only the internal DMAC has no SYS-DMAC entries) */
static int idmac_wrong_soc(void)
{
	return sdhi_init_with(mmchal_sdhi_idmac_init, bi_sdhi_cfg(GEN2));
}
#endif

static int idmac_null_cfg(void)
{
	return sdhi_init_with(mmchal_sdhi_idmac_init, NULL);
}

/* Set up, never probed: every op refuses without a register access. */
static struct mmchal_backend *idmac_unprobed(void)
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	if (mmchal_sdhi_idmac_init(s, bi_sdhi_cfg(GEN3), be) != 0)
		fail_msg("bad_input: SDHI fixture");
	return be;
}

static int idmac_start_unprobed(void)
{
	struct mmchal_backend *be = idmac_unprobed();
	struct mmchal_xfer *x = BI_NEW(struct mmchal_xfer);
	struct mmchal_cmd *cmd = BI_NEW(struct mmchal_cmd);

	x->cmd = cmd;
	bi_arm();
	return be->ops->start(be->ctx, x);
}

static int idmac_irq_unprobed(void)
{
	struct mmchal_backend *be = idmac_unprobed();
	uint32_t *ev = BI_NEW(uint32_t);

	bi_arm();
	return be->ops->handle_irq(be->ctx, ev);
}

static int idmac_set_ios_unprobed(void)
{
	struct mmchal_backend *be = idmac_unprobed();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = MMCHAL_BUS_WIDTH_1;
	bi_arm();
	return be->ops->set_ios(be->ctx, ios);
}
#endif

#if MMCHAL_WITH_BACKEND_PIO
/* A PIO SDHI probed on the spy bus (every register reads 0: an old IP
 * version, no card seen), then set_ios with one field out of range. */
static int pio_set_ios_with(void (*bad)(struct mmchal_ios *))
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);
	int err;

	if (mmchal_sdhi_pio_init(s, bi_sdhi_cfg(GEN3), be) != 0)
		fail_msg("bad_input: SDHI PIO fixture");
	err = be->ops->probe(be->ctx);
	if (err != 0)
		fail_msg("bad_input: SDHI PIO probe on the spy bus: %d", err);
	ios->bus_width = MMCHAL_BUS_WIDTH_1;
	ios->clock_hz = 400000;
	ios->power_mode = MMCHAL_POWER_ON;
	bad(ios);
	bi_arm();
	return be->ops->set_ios(be->ctx, ios);
}

static void bad_power(struct mmchal_ios *ios)
{
	ios->power_mode = (enum mmchal_power_mode)3;
}

static void bad_voltage(struct mmchal_ios *ios)
{
	ios->signal_voltage = (enum mmchal_signal_voltage) - 1;
}

static void bad_timing(struct mmchal_ios *ios)
{
	ios->timing = (enum mmchal_timing)(MMCHAL_TIMING_MMC_HS400 + 1);
}

static int pio_ios_power(void)
{
	return pio_set_ios_with(bad_power);
}

static int pio_ios_voltage(void)
{
	return pio_set_ios_with(bad_voltage);
}

static int pio_ios_timing(void)
{
	return pio_set_ios_with(bad_timing);
}
#endif

#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC
static int sysdmac_no_chan(void)
{
	return sdhi_init_with(mmchal_sdhi_sysdmac_init, bi_sdhi_cfg(GEN2));
}

static int sysdmac_chan_incomplete(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN2);
	struct mmchal_dma_chan_ops *o = BI_NEW(struct mmchal_dma_chan_ops);

	*o = bi_chan_ops;
	o->submit = NULL;
	c->chan[0].ops = &bi_chan_ops;
	c->chan[1].ops = o;
	return sdhi_init_with(mmchal_sdhi_sysdmac_init, c);
}

static int sysdmac_wrong_soc(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(GEN3);

	c->chan[0].ops = &bi_chan_ops;
	c->chan[1].ops = &bi_chan_ops;
	return sdhi_init_with(mmchal_sdhi_sysdmac_init, c);
}
#endif

#if MMCHAL_WITH_BACKEND_PIO
static int pio_null_cfg(void)
{
	return sdhi_init_with(mmchal_sdhi_pio_init, NULL);
}
#endif

static int sdhi_stats_null(void)
{
	struct mmchal_sdhi_stats *st = BI_NEW(struct mmchal_sdhi_stats);

	bi_arm();
	return mmchal_sdhi_get_stats(NULL, st);
}

static int sdhi_stats_null_out(void)
{
	struct mmchal_sdhi *s = BI_NEW(struct mmchal_sdhi);

	bi_arm();
	return mmchal_sdhi_get_stats(s, NULL);
}

#endif /* SDHI */

/* ------------------------------------------------------------------ sdhci.h */

#if MMCHAL_WITH_BACKEND_SDHCI

static struct mmchal_port *port_obj(void)
{
	struct mmchal_port *p = BI_NEW(struct mmchal_port);

	p->ops = &bi_port_ops;
	return p;
}

static struct mmchal_sdhci_cfg *sdhci_cfg(void)
{
	struct mmchal_sdhci_cfg *c = BI_NEW(struct mmchal_sdhci_cfg);

	c->bus.ops = &spy_bus_ops;
	c->bus.ctx = BI_NEW(struct spy_bus);
	c->port = port_obj();
	return c;
}

static int sdhci_init_with(const struct mmchal_sdhci_cfg *c)
{
	struct mmchal_sdhci *s = BI_NEW(struct mmchal_sdhci);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);

	memset(s, 0x3c, sizeof(*s));
	memset(be, 0x3c, sizeof(*be));
	bi_arm();
	return mmchal_sdhci_init(s, c, be);
}

static int sdhci_null(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	bi_arm();
	return mmchal_sdhci_init(NULL, c, NULL);
}

static int sdhci_null_cfg(void)
{
	return sdhci_init_with(NULL);
}

static int sdhci_shift(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->bus.bus_shift = 2;
	return sdhci_init_with(c);
}

static int sdhci_no_port(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->port = NULL;
	return sdhci_init_with(c);
}

static int sdhci_width(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->bus_width = 2;
	return sdhci_init_with(c);
}

static int sdhci_dma_enum(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->dma = (enum mmchal_sdhci_dma)5;
	return sdhci_init_with(c);
}

static int sdhci_table_no_size(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->adma_table = bi_obj(64);
	return sdhci_init_with(c);
}

static int sdhci_table_unaligned(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->adma_table = bi_obj_at(64, 4);
	c->adma_table_size = 64;
	c->adma_table_dma = 0x10000004u;
	return sdhci_init_with(c);
}

static int sdhci_table_small(void)
{
	struct mmchal_sdhci_cfg *c = sdhci_cfg();

	c->dma = MMCHAL_SDHCI_DMA_ADMA2_64;
	c->adma_table = bi_obj(8);
	c->adma_table_size = 8;
	c->adma_table_dma = 0x10000000u;
	return sdhci_init_with(c);
}

static int sdhci_name_range(void)
{
	bi_arm();
	return bi_str(mmchal_sdhci_dma_name((enum mmchal_sdhci_dma)5), "unknown") |
	       bi_str(mmchal_sdhci_dma_name((enum mmchal_sdhci_dma) - 1), "unknown");
}

/* Set up, never probed: the ops refuse without a register access. */
static struct mmchal_sdhci *sdhci_unprobed(void)
{
	struct mmchal_sdhci *s = BI_NEW(struct mmchal_sdhci);

	if (mmchal_sdhci_init(s, sdhci_cfg(), NULL) != 0)
		fail_msg("bad_input: SDHCI fixture");
	return s;
}

#define SOPS mmchal_sdhci_ops

static int sop_probe_null(void)
{
	bi_arm();
	return SOPS.probe(NULL);
}

static int sop_caps_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();
	struct mmchal_host_caps *h = BI_NEW(struct mmchal_host_caps);
	struct mmchal_dma_caps *d = BI_NEW(struct mmchal_dma_caps);

	bi_arm();
	return SOPS.get_caps(s, h, d);
}

static int sop_set_ios_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	bi_arm();
	return SOPS.set_ios(s, ios);
}

static int sop_start_null(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.start(s, NULL);
}

static int sop_irq_null(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.handle_irq(s, NULL);
}

static int sop_irq_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();
	uint32_t *ev = BI_NEW(uint32_t);

	bi_writable(ev, sizeof(*ev));
	bi_arm();
	return SOPS.handle_irq(s, ev);
}

static int sop_abort_null(void)
{
	bi_arm();
	return SOPS.abort(NULL);
}

static int sop_busy_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.card_busy(s);
}

static int sop_cd_null(void)
{
	bi_arm();
	return SOPS.get_cd(NULL);
}

static int sop_ro_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.get_ro(s);
}

static int sop_blocks_null(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.blocks_done(s, NULL);
}

static int sop_sdio_unprobed(void)
{
	struct mmchal_sdhci *s = sdhci_unprobed();

	bi_arm();
	return SOPS.enable_sdio_irq(s, true);
}

#endif /* MMCHAL_WITH_BACKEND_SDHCI */

#define VOID_NULL "NULL is ignored"

const struct bi_row bi_rows_backends[] = {
#if MMCHAL_WITH_BACKEND_MOCK
	BI_ROW(mmchal_mock_init, "NULL mock", minit_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "NULL cfg", minit_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "card type 4", minit_card_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "no image", minit_no_image, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "image of 4095 bytes", minit_image_size, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "image size near UINT64_MAX", minit_image_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "SDHC image below 512 KiB", minit_sdhc_small, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "log ring of length 0", minit_log_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "DMA with 0 segments", minit_dma_segs0, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "DMA kind 9", minit_dma_kind, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "8 SDIO functions", minit_sdio_funcs, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_init, "positive illegal_error", minit_illegal_error, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_backend, "NULL mock", mbackend_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_backend, "NULL out", mbackend_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_trigger, VOID_NULL, mtrigger_null, 0),
	BI_ROW(mmchal_mock_irq_pending, "NULL: false", mirq_pending_null, 0),
	BI_ROW(mmchal_mock_busy, "NULL: false", mbusy_null, 0),
	BI_ROW(mmchal_mock_set_latency, VOID_NULL, mlatency_null, 0),
	BI_ROW(mmchal_mock_fail_cmd, "NULL mock", mfail_cmd_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_cmd, "opcode 64", mfail_cmd_opcode, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_cmd, "positive error", mfail_cmd_positive, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_data, "NULL mock", mfail_data_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_data, "fault 5", mfail_data_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_data, "fault -1", mfail_data_negative, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_op, "NULL mock", mfail_op_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_op, "op COUNT", mfail_op_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_fail_op, "positive error", mfail_op_positive, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_set_present, VOID_NULL, mpresent_null, 0),
	BI_ROW(mmchal_mock_set_busy_stuck, VOID_NULL, mstuck_null, 0),
	BI_ROW(mmchal_mock_set_write_protect, VOID_NULL, mwp_null, 0),
	BI_ROW(mmchal_mock_clear_faults, VOID_NULL, mclear_null, 0),
	BI_ROW(mmchal_mock_sdio_irq, "NULL mock", msdio_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_sdio_irq, "not an SDIO card", msdio_not_sdio, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_sdio_irq, "function 0 bit", msdio_mask, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_status, "NULL mock", mstatus_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_status, "NULL out", mstatus_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_mock_stats, "NULL: NULL", mstats_null, 0),
	BI_ROW(mmchal_mock_log_count, "NULL: 0", mlog_count_null, 0),
	BI_ROW(mmchal_mock_log_get, "NULL: NULL", mlog_get_null, 0),
	BI_ROW(mmchal_mock_log_get, "index UINT32_MAX", mlog_get_beyond, 0),
	BI_ROW(mmchal_mock_log_get, "mock never initialised", mlog_get_uninit, 0),
	BI_ROW(mmchal_mock_log_last, "NULL: NULL", mlog_last_null, 0),
	BI_ROW(mmchal_mock_log_last, "empty log", mlog_last_empty, 0),
	BI_ROW(mmchal_mock_log_clear, VOID_NULL, mlog_clear_null, 0),
	BI_OP(mmchal_mock_ops, probe, "NULL ctx", mop_probe_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, get_caps, "NULL host caps", mop_caps_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, set_ios, "NULL ios", mop_set_ios_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, set_ios, "bus width 3", mop_set_ios_width, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, start, "NULL xfer", mop_start_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, start, "xfer without cmd", mop_start_no_cmd, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, handle_irq, "NULL events", mop_irq_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, abort, "NULL ctx", mop_abort_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, card_busy, "NULL ctx", mop_busy_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, get_cd, "NULL ctx", mop_cd_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, get_ro, "NULL ctx", mop_ro_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, hw_reset, "NULL ctx", mop_reset_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, execute_tuning, "NULL ctx", mop_tuning_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, blocks_done, "NULL out", mop_blocks_null, MMCHAL_EINVAL),
	BI_OP(mmchal_mock_ops, enable_sdio_irq, "NULL ctx", mop_sdio_null, MMCHAL_EINVAL),
#endif
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC || MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
	BI_ROW(mmchal_sdhi_soc_lookup, "NULL", soc_lookup_null, 0),
	BI_ROW(mmchal_sdhi_soc_lookup, "unknown and empty", soc_lookup_unknown, 0),
	BI_ROW(mmchal_sdhi_soc_table, "NULL count", soc_table_null, 0),
	BI_ROW(mmchal_sdhi_bus_shift, "NULL soc", bus_shift_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_bus_shift, "reg size 0", bus_shift_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_rev_flags, "99 and -1: no flags", rev_flags_range, 0),
	BI_ROW(mmchal_sdhi_iommu_usable, "NULL SoC, revision 99", iommu_usable_null, 0),
	BI_ROW(mmchal_sdhi_init, "NULL sdhi", sdhi_null_sdhi, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_init, "NULL out", sdhi_init_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_init, "NULL cfg", sdhi_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_init, "NULL soc", sdhi_no_soc, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_init, "SoC kind 7", sdhi_kind, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "NULL out", sdhi_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "clock 0", sdhi_clk0, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "bus_shift 3", sdhi_bus_bad, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "bus without ops", sdhi_bus_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "port width 3", sdhi_port_width, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "port without ops", sdhi_port_bad, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "revision 6", sdhi_rev, MMCHAL_EINVAL),
#if MMCHAL_WITH_BACKEND_PIO
	BI_ROW(mmchal_sdhi_pio_init, "NULL cfg", pio_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "ops: set_ios with power mode 3", pio_ios_power,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "ops: set_ios with signal voltage -1", pio_ios_voltage,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_pio_init, "ops: set_ios with timing HS400 + 1", pio_ios_timing,
	       MMCHAL_EINVAL),
#endif
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC
	BI_ROW(mmchal_sdhi_idmac_init, "NULL cfg", idmac_null_cfg, MMCHAL_EINVAL),
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
	BI_ROW(mmchal_sdhi_idmac_init, "SYS-DMAC SoC entry", idmac_wrong_soc, MMCHAL_EINVAL),
#endif
	BI_ROW(mmchal_sdhi_idmac_init, "ops: start before probe", idmac_start_unprobed,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_idmac_init, "ops: handle_irq before probe", idmac_irq_unprobed,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_idmac_init, "ops: set_ios before probe", idmac_set_ios_unprobed,
	       MMCHAL_EINVAL),
#endif
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC
	BI_ROW(mmchal_sdhi_sysdmac_init, "no channels", sysdmac_no_chan, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_sysdmac_init, "channel without submit", sysdmac_chan_incomplete,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_sysdmac_init, "internal-DMAC SoC entry", sysdmac_wrong_soc,
	       MMCHAL_EINVAL),
#endif
	BI_ROW(mmchal_sdhi_get_stats, "NULL sdhi", sdhi_stats_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhi_get_stats, "NULL out", sdhi_stats_null_out, MMCHAL_EINVAL),
#endif
#if MMCHAL_WITH_BACKEND_SDHCI
	BI_ROW(mmchal_sdhci_init, "NULL sdhci", sdhci_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "NULL cfg", sdhci_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "bus_shift 2", sdhci_shift, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "NULL port", sdhci_no_port, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "bus width 2", sdhci_width, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "DMA mode 5", sdhci_dma_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "ADMA table without size", sdhci_table_no_size, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "ADMA table address +4", sdhci_table_unaligned, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_init, "ADMA2-64 table of 8 bytes", sdhci_table_small, MMCHAL_EINVAL),
	BI_ROW(mmchal_sdhci_dma_name, "5 and -1", sdhci_name_range, 0),
	BI_OP(mmchal_sdhci_ops, probe, "NULL ctx", sop_probe_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, get_caps, "before probe", sop_caps_unprobed, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, set_ios, "before probe", sop_set_ios_unprobed, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, start, "NULL xfer", sop_start_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, handle_irq, "NULL events", sop_irq_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, handle_irq, "before probe", sop_irq_unprobed, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, abort, "NULL ctx", sop_abort_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, card_busy, "before probe", sop_busy_unprobed, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, get_cd, "NULL ctx", sop_cd_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, get_ro, "before probe", sop_ro_unprobed, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, blocks_done, "NULL out", sop_blocks_null, MMCHAL_EINVAL),
	BI_OP(mmchal_sdhci_ops, enable_sdio_irq, "before probe", sop_sdio_unprobed, MMCHAL_EINVAL),
#endif
	/* present in every configuration, also with every backend configured out */
	BI_ROW(mmchal_bus_check, "spy bus with bus_shift 3", spy_bus_shift, MMCHAL_EINVAL),
};

const size_t bi_nrows_backends = sizeof(bi_rows_backends) / sizeof(bi_rows_backends[0]);
