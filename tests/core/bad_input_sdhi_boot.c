/*
 * Bad-input rows: the eMMC boot reader (sdhi_boot.h). Its configurations sit
 * on the SDHI rows' spy bus (bad_input_backends.c), whose access counters
 * live in the arena: a refused call that touched a register fails its row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

#if MMCHAL_WITH_BACKEND_SDHI_IDMAC
/* eMMC boot reader: a configuration it accepts (spy bus, a port) but for the one
   field a row breaks; a scratch buffer at an aligned address below 4 GiB. Every
   refusal comes before the first register access (the spy bus counts them). */
static struct mmchal_sdhi_cfg *boot_cfg(void)
{
	struct mmchal_sdhi_cfg *c = bi_sdhi_cfg(BI_SDHI_GEN3);
	struct mmchal_port *port = BI_NEW(struct mmchal_port);

	port->ops = &bi_port_ops;
	c->port = port;
	return c;
}

static int boot_init_with(struct mmchal_emmc_boot *eb, const struct mmchal_sdhi_cfg *c,
			  void *scratch, mmchal_dma_addr_t dma)
{
	bi_arm();
	return mmchal_emmc_boot_init(eb, c, scratch, dma);
}

#define BOOT_EB      BI_NEW(struct mmchal_emmc_boot)
#define BOOT_SCRATCH bi_obj(MMCHAL_EMMC_BOOT_SCRATCH)

static int boot_init_null(void)
{
	return boot_init_with(NULL, boot_cfg(), BOOT_SCRATCH, 0x1000);
}

static int boot_init_null_cfg(void)
{
	return boot_init_with(BOOT_EB, NULL, BOOT_SCRATCH, 0x1000);
}

static int boot_init_null_scratch(void)
{
	return boot_init_with(BOOT_EB, boot_cfg(), NULL, 0x1000);
}

static int boot_init_no_port(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->port = NULL;
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

static int boot_init_port_no_ops(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();
	struct mmchal_port *port = BI_NEW(struct mmchal_port);

	c->port = port; /* half-initialised: no ops */
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

static int boot_init_unaligned(void)
{
	return boot_init_with(BOOT_EB, boot_cfg(), BOOT_SCRATCH, 0x1040);
}

static int boot_init_high(void)
{
	return boot_init_with(BOOT_EB, boot_cfg(), BOOT_SCRATCH, 0x100000000ull);
}

static int boot_init_crossing(void)
{
	return boot_init_with(BOOT_EB, boot_cfg(), BOOT_SCRATCH, 0xffffff80u);
}

static int boot_init_clk0(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->clk_hz = 0;
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

static int boot_init_shift1(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->bus.bus_shift = 1;
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

static int boot_init_no_bus_ops(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->bus.ops = NULL;
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

static int boot_init_no_soc(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->soc = NULL;
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}

#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
static int boot_init_sysdmac_soc(void)
{
	struct mmchal_sdhi_cfg *c = boot_cfg();

	c->soc = mmchal_sdhi_soc_lookup(BI_SDHI_GEN2);
	return boot_init_with(BOOT_EB, c, BOOT_SCRATCH, 0x1000);
}
#endif

/* A state as a successful init leaves it, on the spy bus: 1000 sectors. The reads
   below are refused before any register access. */
static struct mmchal_emmc_boot *boot_ready(void)
{
	struct mmchal_emmc_boot *eb = BOOT_EB;
	struct mmchal_sdhi_cfg *c = boot_cfg();

	eb->bus = c->bus;
	eb->port = c->port;
	eb->sectors = 1000;
	eb->ready = true;
	return eb;
}

static int boot_read_with(struct mmchal_emmc_boot *eb, uint64_t lba, uint32_t n,
			  mmchal_dma_addr_t dma)
{
	void *dst = bi_obj(512);

	bi_arm();
	return mmchal_emmc_boot_read(eb, lba, n, dst, dma);
}

static int boot_read_null(void)
{
	return boot_read_with(NULL, 0, 1, 0x1000);
}

static int boot_read_not_ready(void)
{
	return boot_read_with(BOOT_EB, 0, 1, 0x1000);
}

static int boot_read_null_dst(void)
{
	struct mmchal_emmc_boot *eb = boot_ready();

	bi_arm();
	return mmchal_emmc_boot_read(eb, 0, 1, NULL, 0x1000);
}

static int boot_read_zero(void)
{
	return boot_read_with(boot_ready(), 0, 0, 0x1000);
}

static int boot_read_unaligned(void)
{
	return boot_read_with(boot_ready(), 0, 1, 0x1008);
}

static int boot_read_crossing(void)
{
	return boot_read_with(boot_ready(), 0, 2, 0xfffffe00u);
}

static int boot_read_max_blocks(void)
{
	return boot_read_with(boot_ready(), 0, UINT32_MAX, 0x1000);
}

static int boot_read_past_end(void)
{
	return boot_read_with(boot_ready(), 999, 2, 0x1000);
}

static int boot_read_lba_max(void)
{
	return boot_read_with(boot_ready(), UINT64_MAX, 1, 0x1000);
}

static int boot_sectors_null(void)
{
	bi_arm();
	return (int)mmchal_emmc_boot_sectors(NULL);
}

static int boot_sectors_not_ready(void)
{
	struct mmchal_emmc_boot *eb = BOOT_EB;

	eb->sectors = 1000; /* half-initialised: not ready */
	bi_arm();
	return (int)mmchal_emmc_boot_sectors(eb);
}

static int boot_width_null(void)
{
	bi_arm();
	return (int)mmchal_emmc_boot_bus_width(NULL);
}

static int boot_width_not_ready(void)
{
	struct mmchal_emmc_boot *eb = BOOT_EB;

	eb->width = 8;
	bi_arm();
	return (int)mmchal_emmc_boot_bus_width(eb);
}
#endif

const struct bi_row bi_rows_sdhi_boot[] = {
#if MMCHAL_WITH_BACKEND_SDHI_IDMAC
	BI_ROW(mmchal_emmc_boot_init, "NULL state", boot_init_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "NULL cfg", boot_init_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "NULL scratch", boot_init_null_scratch, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "NULL port", boot_init_no_port, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "port without ops", boot_init_port_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "scratch address +64", boot_init_unaligned, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "scratch at 4 GiB", boot_init_high, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "scratch crossing 4 GiB", boot_init_crossing, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "clock 0", boot_init_clk0, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "bus_shift 1", boot_init_shift1, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "bus without ops", boot_init_no_bus_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_init, "NULL SoC entry", boot_init_no_soc, MMCHAL_EINVAL),
#if MMCHAL_WITH_BACKEND_SDHI_SYSDMAC || MMCHAL_WITH_BACKEND_PIO
	BI_ROW(mmchal_emmc_boot_init, "SYS-DMAC SoC entry", boot_init_sysdmac_soc, MMCHAL_EINVAL),
#endif
	BI_ROW(mmchal_emmc_boot_read, "NULL state", boot_read_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "state never initialised", boot_read_not_ready,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "NULL dst", boot_read_null_dst, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "0 blocks", boot_read_zero, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "dst address +8", boot_read_unaligned, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "dst crossing 4 GiB", boot_read_crossing, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "UINT32_MAX blocks", boot_read_max_blocks, MMCHAL_EINVAL),
	BI_ROW(mmchal_emmc_boot_read, "past the last sector", boot_read_past_end, MMCHAL_ERANGE),
	BI_ROW(mmchal_emmc_boot_read, "lba UINT64_MAX", boot_read_lba_max, MMCHAL_ERANGE),
	BI_ROW(mmchal_emmc_boot_sectors, "NULL state", boot_sectors_null, 0),
	BI_ROW(mmchal_emmc_boot_sectors, "state never initialised", boot_sectors_not_ready, 0),
	BI_ROW(mmchal_emmc_boot_bus_width, "NULL state", boot_width_null, 0),
	BI_ROW(mmchal_emmc_boot_bus_width, "state never initialised", boot_width_not_ready, 0),
#endif
	/* a library without the internal DMAC has no boot reader: no row applies */
	{NULL, NULL, NULL, 0, NULL, 0},
};

const size_t bi_nrows_sdhi_boot = sizeof(bi_rows_sdhi_boot) / sizeof(bi_rows_sdhi_boot[0]) - 1u;
