/*
 * The probe's output drives the real SDHI backends: every enabled node of the
 * Salvator-XS (H3, M3-N), RZ/G2L SMARC and Lager boards is turned into a
 * backend over the register-level simulator (sim/) with only what a port adds
 * (bus accessor, input clock, SYS-DMAC channels), and the capabilities the
 * probed backend declares must be those the probe derived from the tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/dt.h>
#include <mmchal/error.h>
#include <mmchal/sdhi.h>
#include <mmchal_sim/sim.h>

#include "dt/dt_shared.h"

#define MAXN 8
#define CLK  800000000u /* above every max-frequency: f_max stays the tree's */

static void check_board(const char *board, enum mmchal_sim_soc soc)
{
	static struct mmchal_dt_node nodes[MAXN];
	size_t size, n, i, checked = 0;
	unsigned char *blob = dt_load(board, &size);

	assert_int_equal(mmchal_dt_probe(blob, size, NULL, NULL, nodes, MAXN, &n), 0);
	for (i = 0; i < n; i++) {
		const struct mmchal_dt_node *nd = &nodes[i];
		struct mmchal_sim_config sc;
		struct mmchal_sim *sim;
		struct mmchal_sdhi_cfg cfg = nd->cfg;
		struct mmchal_sdhi sdhi;
		struct mmchal_backend be;
		struct mmchal_host_caps hc;
		struct mmchal_dma_caps dc;
		bool narrow = nd->bus_shift == 0;

		if (!nd->enabled)
			continue;
		print_message("%s %s\n", board, nd->path);
		assert_int_equal(mmchal_sim_config_defaults(&sc, soc), 0);
		sc.bus_shift = nd->bus_shift;
		/* Gen2's 0x100-byte windows are the older SDR50 controllers. */
		if (soc == MMCHAL_SIM_SOC_GEN2 && narrow)
			sc.version = 0x490c;
		assert_int_equal(mmchal_sim_create(&sc, &sim), 0);
		/* What the port adds to the probe's configuration. */
		assert_int_equal(mmchal_sim_bus(sim, &cfg.bus), 0);
		assert_int_equal(cfg.bus.bus_shift, nd->cfg.bus.bus_shift);
		cfg.clk_hz = CLK;
		if (nd->backend == MMCHAL_DT_BACKEND_SYSDMAC) {
			assert_int_equal(mmchal_sim_sysdmac(sim, MMCHAL_DIR_TO_CARD, &cfg.chan[0]),
					 0);
			assert_int_equal(
				mmchal_sim_sysdmac(sim, MMCHAL_DIR_FROM_CARD, &cfg.chan[1]), 0);
		}
		cfg.caps.completion = nd->caps.host.completion;
		assert_int_equal(mmchal_sdhi_init(&sdhi, &cfg, &be), 0);
		assert_int_equal(be.ops->probe(be.ctx), 0);
		assert_int_equal(be.ops->get_caps(be.ctx, &hc, &dc), 0);

		assert_int_equal(hc.bus, nd->caps.host.bus);
		/* Without max-frequency the controller's input clock decides. */
		if (nd->caps.host.f_max_hz != 0)
			assert_int_equal(hc.f_max_hz, nd->caps.host.f_max_hz);
		else
			assert_true(hc.f_max_hz > 0 && hc.f_max_hz <= CLK);
		assert_int_equal(hc.merge_capable, nd->caps.host.merge_capable);
		assert_int_equal(hc.max_blk_size, nd->caps.host.max_blk_size);
		assert_int_equal(hc.completion, nd->caps.host.completion);
		/* The tree cannot tell VERSION: the probe's counter is never wider. */
		assert_true(hc.blk_count_bits >= nd->caps.host.blk_count_bits);
		if (hc.blk_count_bits == nd->caps.host.blk_count_bits)
			assert_int_equal(hc.max_blk_count, nd->caps.host.max_blk_count);
		assert_int_equal(dc.kind, nd->caps.dma.kind);
		if (dc.kind == MMCHAL_DMA_INTERNAL)
			assert_memory_equal(&dc, &nd->caps.dma, sizeof(dc));
		else if (dc.kind == MMCHAL_DMA_EXTERNAL)
			assert_true(dc.dir[0].max_segs <= nd->caps.dma.dir[0].max_segs);
		checked++;
		mmchal_sim_destroy(sim);
	}
	assert_true(checked >= 2);
	free(blob);
}

static void test_gen3_nodes_drive_idmac(void **state)
{
	(void)state;
	check_board("r8a77951-salvator-xs", MMCHAL_SIM_SOC_GEN3);
	check_board("r8a77965-salvator-xs", MMCHAL_SIM_SOC_GEN3);
	check_board("r9a07g044l2-smarc", MMCHAL_SIM_SOC_GEN3);
}

static void test_lager_nodes_drive_sysdmac(void **state)
{
	(void)state;
	check_board("r8a7790-lager", MMCHAL_SIM_SOC_GEN2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen3_nodes_drive_idmac),
		cmocka_unit_test(test_lager_nodes_drive_sysdmac),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
