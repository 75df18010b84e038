/*
 * A PIO write that fails reports only blocks the card has: the backend counts
 * a block when it goes into the data buffer, but the card takes it only with
 * a positive CRC status after it left the buffer, so the last block written
 * before the error is not known to be on the card. It used to be counted
 * (bytes_xfered one block beyond the card's content; found by bench/soak).
 * A PIO read keeps counting every block it took out of the buffer.
 */
#include "sdhi_fx.h"

#define LBA  300u
#define NBLK 8u

struct wio {
	struct fx_buf b;
	struct mmchal_sg sg;
	struct mmchal_data d;
	struct mmchal_cmd c;
	struct mmchal_xfer x;
};

/* One 8-block CMD25 / CMD18 by PIO (auto CMD12) with @p kind at block @p at. */
static void run(enum mmchal_sdhi_kind kind, enum mmchal_sim_soc soc, bool write,
		enum mmchal_sim_fault_kind fk, uint32_t at, uint32_t *bytes, uint32_t *on_card)
{
	struct fx_opts o = {soc, kind, -1, 0, 0, MMCHAL_SIM_CARD_MMC, false, false, 0};
	struct mmchal_sim_fault sf = {fk, MMCHAL_SIM_AT_BLOCK, write ? 25 : 18, at, 0};
	struct fx f;
	struct wio w;
	uint64_t size;
	uint8_t *store;
	uint32_t ev, k = 0;

	assert_int_equal(fx_open(&f, &o), 0);
	fx_mmc_init(&f, MMCHAL_BUS_WIDTH_8);
	store = mmchal_sim_card_store(f.sim, &size);
	memset(store + LBA * 512u, 0, NBLK * 512u);
	memset(&w, 0, sizeof(w));
	fx_buf_get(&f, f.lo, NBLK * 512u, 0, &w.b);
	for (uint32_t i = 0; i < NBLK * 512u; i++)
		w.b.p[i] = write ? (uint8_t)(0x80u | (i / 512u)) : 0x5a;
	for (uint32_t i = 0; !write && i < NBLK * 512u; i++)
		store[LBA * 512u + i] = (uint8_t)(0x40u | (i / 512u));
	w.sg = (struct mmchal_sg){w.b.p, w.b.phys, NBLK * 512u};
	w.d = (struct mmchal_data){.dir = write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD,
				   .blksz = 512,
				   .blocks = NBLK,
				   .sg = &w.sg,
				   .sg_len = 1};
	w.c = (struct mmchal_cmd){.opcode = write ? 25u : 18u, .arg = LBA, .flags = MMCHAL_RSP_R1};
	w.x = (struct mmchal_xfer){
		.cmd = &w.c, .data = &w.d, .auto_stop = true, .plan = MMCHAL_PLAN_PIO};
	assert_int_equal(mmchal_sim_fault_add(f.sim, &sf), 0);
	assert_int_equal(f.be.ops->start(f.be.ctx, &w.x), 0);
	ev = fx_wait(&f, &w.x);
	assert_false(ev & FX_TIMEOUT);
	assert_true(ev & MMCHAL_EV_DATA_ERROR);
	assert_int_equal(mmchal_sim_faults_fired(f.sim, fk), 1);
	*bytes = w.d.bytes_xfered;
	/* what the host core asks after the error must agree */
	assert_int_equal(f.be.ops->blocks_done(f.be.ctx, &ev), 0);
	assert_int_equal(ev * 512u, *bytes);
	/* blocks on the card (write) or in memory (read), from the start */
	for (; k < NBLK; k++) {
		const uint8_t *p = write ? store + (LBA + k) * 512u : w.b.p + k * 512u;

		if (p[0] != (uint8_t)((write ? 0x80u : 0x40u) | k) || memcmp(p, p + 1, 511) != 0)
			break;
	}
	*on_card = k * 512u;
	fx_close(&f);
}

static void test_pio_write_error_counts_card_blocks(void **state)
{
	static const enum mmchal_sim_soc socs[] = {MMCHAL_SIM_SOC_GEN3, MMCHAL_SIM_SOC_GEN2};
	uint32_t bytes, card;

	(void)state;
	for (int s = 0; s < 2; s++) {
		/* negative CRC status for block 3: blocks 0..2 are on the card */
		run(MMCHAL_SDHI_PIO, socs[s], true, MMCHAL_SIM_FAULT_DATA_CRC, 3, &bytes, &card);
		assert_int_equal(card, 3u * 512u);
		assert_int_equal(bytes, 3u * 512u);
		/* the card never takes block 5 */
		run(MMCHAL_SDHI_PIO, socs[s], true, MMCHAL_SIM_FAULT_DATA_TIMEOUT, 5, &bytes,
		    &card);
		assert_int_equal(card, 5u * 512u);
		assert_int_equal(bytes, 5u * 512u);
		/* block 0 fails: nothing is on the card, nothing is claimed */
		run(MMCHAL_SDHI_PIO, socs[s], true, MMCHAL_SIM_FAULT_DATA_CRC, 0, &bytes, &card);
		assert_int_equal(card, 0);
		assert_int_equal(bytes, 0);
	}
}

static void test_pio_read_error_counts_blocks_read(void **state)
{
	uint32_t bytes, mem;

	(void)state;
	/* block 4 arrives with a bad CRC: blocks 0..3 were read and are reported */
	run(MMCHAL_SDHI_PIO, MMCHAL_SIM_SOC_GEN3, false, MMCHAL_SIM_FAULT_DATA_CRC, 4, &bytes,
	    &mem);
	assert_int_equal(bytes, 4u * 512u);
	assert_int_equal(mem, 4u * 512u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pio_write_error_counts_card_blocks),
		cmocka_unit_test(test_pio_read_error_counts_blocks_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
