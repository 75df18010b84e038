/*
 * Simulator tests of the IOMMU (docs/sim.md section 6): the configuration
 * taken as given, the checks of map and unmap at their edges, a flush that
 * invalidates exactly its pages, the FIFO TLB evicting its oldest entry, and
 * the statistics counted exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drv.h"

#define RAM_BASE 0x40000000u
#define PG       4096u
#define RD       MMCHAL_IOMMU_READ
#define WR       MMCHAL_IOMMU_WRITE

/* The configuration as given; caps report it; a second attach is refused. */
static void test_attach_config(void **state)
{
	struct mmchal_sim_iommu_config cfg = {0x100000u, 0x1fffffu, 4, true};
	struct mmchal_iommu_caps caps;
	struct mmchal_sim *sim;
	struct mmchal_iommu io;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_iommu_attach(NULL, &cfg), MMCHAL_EINVAL);
	/* Bad apertures: end not after start, start or end + 1 not page aligned. */
	cfg.aperture_end = 0x100000u;
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), MMCHAL_EINVAL);
	cfg.aperture_end = 0xfffffu;
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), MMCHAL_EINVAL);
	cfg.aperture_start = 0x100800u;
	cfg.aperture_end = 0x1fffffu;
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), MMCHAL_EINVAL);
	cfg.aperture_start = 0x100000u;
	cfg.aperture_end = 0x1ffffeu;
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_iommu(sim, &io), MMCHAL_ENOENT);
	cfg.aperture_end = 0x1fffffu;
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), 0);
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), MMCHAL_EBUSY);
	assert_int_equal(mmchal_sim_iommu(sim, &io), 0);
	memset(&caps, 0x5a, sizeof(caps));
	assert_int_equal(io.ops->get_caps(io.ctx, &caps), 0);
	assert_true(caps.present);
	assert_int_equal(caps.page_size, PG);
	assert_true(caps.merge_boundary == 0);
	assert_true(caps.max_map_size == 0);
	assert_true(caps.aperture_start == 0x100000u);
	assert_true(caps.aperture_end == 0x1fffffu);
	assert_int_equal(io.ops->get_caps(io.ctx, NULL), MMCHAL_EINVAL);
	mmchal_sim_destroy(sim);

	/* Defaults: 0x1000 .. 0xffffffff, merge boundary 4095. */
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_iommu_attach(sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu(sim, &io), 0);
	assert_int_equal(io.ops->get_caps(io.ctx, &caps), 0);
	assert_true(caps.merge_boundary == PG - 1u);
	assert_true(caps.aperture_start == 0x1000u);
	assert_true(caps.aperture_end == 0xffffffffu);
	mmchal_sim_destroy(sim);
}

/* map/unmap checks at their edges; nothing changes on an error. */
static void test_map_unmap_edges(void **state)
{
	struct mmchal_sim_iommu_config cfg = {0x100000u, 0x1fffffu, 4, false};
	struct mmchal_sim_iommu_stats st;
	struct mmchal_sim *sim;
	struct mmchal_iommu io;

	(void)state;
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_iommu_attach(sim, &cfg), 0);
	assert_int_equal(mmchal_sim_iommu(sim, &io), 0);
	/* The aperture's first and last pages; one page outside on either side. */
	assert_int_equal(io.ops->map(io.ctx, 0x100000u, RAM_BASE, PG, RD), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x1ff000u, RAM_BASE, PG, WR), 0);
	assert_int_equal(io.ops->map(io.ctx, 0xff000u, RAM_BASE, PG, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x200000u, RAM_BASE, PG, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x1ff000u, RAM_BASE, 2 * PG, RD), MMCHAL_EINVAL);
	/* Alignment, size, permission, wrap-around. */
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, RAM_BASE, 0, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101800u, RAM_BASE, PG, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, RAM_BASE, PG + 1u, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, RAM_BASE + 8u, PG, RD), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, RAM_BASE, PG, 0), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, RAM_BASE, PG, RD | 4u), MMCHAL_EINVAL);
	assert_int_equal(io.ops->map(io.ctx, 0x101000u, UINT64_MAX - PG + 1u, PG, RD),
			 MMCHAL_EINVAL);
	/* A range that overlaps one mapped page is refused whole. */
	assert_int_equal(io.ops->map(io.ctx, 0x1fd000u, RAM_BASE, 3 * PG, RD), MMCHAL_EALREADY);
	assert_int_equal(mmchal_sim_iommu_stats(sim, &st), 0);
	assert_true(st.maps == 2);
	assert_true(st.mapped_pages == 2);
	/* unmap: every page must be mapped, else nothing is removed. */
	assert_int_equal(io.ops->unmap(io.ctx, 0x1fe000u, 2 * PG), MMCHAL_ENOENT);
	assert_int_equal(io.ops->unmap(io.ctx, 0x1ff000u, 0), MMCHAL_EINVAL);
	assert_int_equal(io.ops->unmap(io.ctx, 0x200000u, PG), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_iommu_stats(sim, &st), 0);
	assert_true(st.unmaps == 0);
	assert_true(st.mapped_pages == 2);
	assert_int_equal(io.ops->unmap(io.ctx, 0x1ff000u, PG), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x1fe000u, RAM_BASE, 2 * PG, RD | WR), 0);
	assert_int_equal(mmchal_sim_iommu_stats(sim, &st), 0);
	assert_true(st.maps == 3);
	assert_true(st.unmaps == 1);
	assert_true(st.mapped_pages == 3);
	assert_int_equal(mmchal_sim_iommu_stats(sim, NULL), MMCHAL_EINVAL);
	mmchal_sim_destroy(sim);
	assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
	assert_int_equal(mmchal_sim_iommu_stats(sim, &st), MMCHAL_ENOENT);
	mmchal_sim_destroy(sim);
}

/* eMMC in 8-bit HS200 at 200 MHz, DMAC on, RAM at RAM_BASE. */
static void open_emmc(struct drv *d)
{
	struct mmchal_sim_card_config cc;

	assert_int_equal(drv_open(d, NULL), 0);
	assert_int_equal(mmchal_sim_mem_add(d->sim, RAM_BASE, 1u << 20, NULL), 0);
	mmchal_sim_card_defaults(MMCHAL_SIM_CARD_MMC, &cc);
	cc.read_latency_ns = 0;
	cc.read_rate = 0;
	cc.write_rate = 0;
	assert_int_equal(mmchal_sim_card_insert(d->sim, &cc), 0);
	assert_int_equal(drv_mmc_init(d), 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);    /* 25 MHz */
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80aeu); /* 1-bit */
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
	for (unsigned i = 0; i < 64 * 512; i++)
		mmchal_sim_card_store(d->sim, NULL)[i] = (uint8_t)(i / 512u + 1u);
}

/* Read one block at @lba to @iova through the DMAC; true when it completed. */
static bool dm_read(struct drv *d, uint32_t lba, uint64_t iova)
{
	uint32_t st;

	/* A soft reset drops a block an earlier failed transfer left in the buffer. */
	mmchal_bus_wr16(&d->bus, R_SOFTRST, 0);
	mmchal_bus_wr16(&d->bus, R_SOFTRST, 1);
	mmchal_bus_wr32(&d->bus, R_MASK1, 0);
	mmchal_bus_wr16(&d->bus, R_CLK, 0x0102u);
	mmchal_bus_wr16(&d->bus, R_OPTION, 0x80aeu);
	mmchal_bus_wr16(&d->bus, R_EXTMODE, 0x1012u);
	drv_ack(d, 0xffffffffu);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO1, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_INFO2, 0);
	mmchal_bus_raw_wr32(&d->bus, DM_MODE, (1u << 16) | 0x31u);
	d->bus.ops->write64(d->bus.ctx, DM_ADDR, iova);
	mmchal_bus_raw_wr32(&d->bus, DM_CTRL, 1);
	drv_setup_data(d, 512, 1, false);
	assert_int_equal(drv_cmd(d, C_R1 | C_DATA | C_READ | 17, lba), 0);
	st = drv_wait(d, S_ACCESS_END, 100000000u);
	/* After a DMA error the block stays in the buffer; the card is back in tran. */
	return (st & S_ACCESS_END) != 0;
}

/*
 * TLB (docs/sim.md section 6): a FIFO of tlb_entries translations; a flush
 * invalidates the cached pages of its range and no others (size 0: the one
 * page); an evicted entry is walked again, so an unmapped page then faults
 * instead of hitting stale. Statistics count every translation and hit.
 */
static void test_tlb_fifo_and_flush_range(void **state)
{
	struct mmchal_sim_iommu_config cfg = {0, 0, 2, false};
	struct mmchal_sim_iommu_stats st;
	struct mmchal_iommu io;
	uint8_t *mem;
	struct drv d;

	(void)state;
	open_emmc(&d);
	mem = mmchal_sim_phys_to_host(d.sim, RAM_BASE, 1u << 20);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, &cfg), 0);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(io.ops->map(io.ctx, 0x10000u + i * PG, RAM_BASE + i * PG, PG, WR),
				 0);
	/* Pages 0 and 1 cached. */
	assert_true(dm_read(&d, 0, 0x10000u));
	assert_true(dm_read(&d, 1, 0x11000u));
	assert_int_equal(mem[0], 1);
	assert_int_equal(mem[PG], 2);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.translations == 2 && st.tlb_hits == 0);
	/* Unmap both; flush page 1 only (size 0 = its page): page 0 hits stale, page 1 faults. */
	assert_int_equal(io.ops->unmap(io.ctx, 0x10000u, 2 * PG), 0);
	assert_int_equal(io.ops->flush(io.ctx, 0x11000u, 0), 0);
	assert_true(dm_read(&d, 2, 0x10000u));
	assert_int_equal(mem[0], 3);
	assert_false(dm_read(&d, 3, 0x11000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.stale_hits == 1);
	assert_true(st.tlb_hits == 1);
	assert_true(st.faults == 1);
	assert_int_equal(st.last_fault, MMCHAL_SIM_IOMMU_FAULT_UNMAPPED);
	assert_true(st.last_fault_iova == 0x11000u);
	assert_true(st.last_fault_write);
	/* Pages 2 and 3 fill the two-entry TLB and evict page 0's stale entry. */
	assert_true(dm_read(&d, 4, 0x12000u));
	assert_true(dm_read(&d, 5, 0x13000u));
	assert_false(dm_read(&d, 6, 0x10000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.faults == 2);
	assert_true(st.stale_hits == 1);
	/* A flush of a range that ends before page 3 keeps it; one covering it drops it. */
	assert_int_equal(io.ops->unmap(io.ctx, 0x13000u, PG), 0);
	assert_int_equal(io.ops->flush(io.ctx, 0x12000u, PG), 0);
	assert_true(dm_read(&d, 7, 0x13000u)); /* stale */
	assert_int_equal(io.ops->flush(io.ctx, 0x12000u, 2 * PG), 0);
	assert_false(dm_read(&d, 8, 0x13000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.stale_hits == 2);
	assert_true(st.flushes == 3);
	assert_true(st.faults == 3);
	drv_close(&d);
}

/*
 * A fault never reaches memory: an unmapped IOVA that is also a RAM address
 * leaves that RAM alone. An injected fault (docs/sim.md section 9) hits one
 * translation only: the next transfer goes through.
 */
static void test_fault_is_not_an_access(void **state)
{
	struct mmchal_sim_fault f = {MMCHAL_SIM_FAULT_IOMMU, MMCHAL_SIM_AT_BLOCK, 17, 0, 0};
	struct mmchal_sim_iommu_stats st;
	struct mmchal_iommu io;
	uint8_t *mem;
	struct drv d;

	(void)state;
	open_emmc(&d);
	mem = mmchal_sim_phys_to_host(d.sim, RAM_BASE, 1u << 20);
	memset(mem, 0xee, 8192);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	assert_false(dm_read(&d, 0, RAM_BASE));
	assert_int_equal(mem[0], 0xee);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_int_equal(st.last_fault, MMCHAL_SIM_IOMMU_FAULT_UNMAPPED);
	assert_true(st.last_fault_iova == RAM_BASE);
	/* Injected: one fault, then the same mapping works. */
	assert_int_equal(io.ops->map(io.ctx, 0x20000u, RAM_BASE + PG, PG, WR), 0);
	assert_int_equal(mmchal_sim_fault_add(d.sim, &f), 0);
	assert_false(dm_read(&d, 1, 0x20000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_int_equal(st.last_fault, MMCHAL_SIM_IOMMU_FAULT_INJECTED);
	assert_true(st.faults == 2);
	assert_int_equal(mem[PG], 0xee);
	assert_true(dm_read(&d, 1, 0x20000u));
	assert_int_equal(mem[PG], 2);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.faults == 2);
	drv_close(&d);
}

/*
 * The page table against a plain array, over 20 000 seeded operations on
 * 3000 pages: one- and four-page maps and unmaps, whose EALREADY and ENOENT
 * answers show exactly which pages the table holds, through growth of the
 * table (more than 512 pages at once) and removals in the middle of probe
 * chains. mapped_pages follows the count. Then the device reads through a
 * sample of the mapped pages: each reaches the physical page it was mapped to.
 */
static void test_table_against_model(void **state)
{
	enum { NPAGES = 3000 };
	static bool ref[NPAGES];
	struct mmchal_sim_iommu_stats st;
	struct mmchal_iommu io;
	uint64_t x = 0x1234567ull, count = 0, peak = 0;
	unsigned checked = 0;
	struct drv d;

	(void)state;
	memset(ref, 0, sizeof(ref));
	open_emmc(&d);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	for (unsigned op = 0; op < 20000; op++) {
		uint64_t r;
		uint32_t pg, n;
		bool any = false, all = true, unmap;
		int want;

		x += 0x9e3779b97f4a7c15ull; /* splitmix64 step */
		r = x;
		r = (r ^ (r >> 30)) * 0xbf58476d1ce4e5b9ull;
		r = (r ^ (r >> 27)) * 0x94d049bb133111ebull;
		r ^= r >> 31;
		pg = (uint32_t)((r >> 8) % (NPAGES - 3u));
		/* four pages, within one 256-page stretch: page pg + i goes to RAM page
		   (pg + i) % 256 */
		n = (r & 7u) == 0 && pg % 256u <= 252u ? 4u : 1u;
		/* mostly maps while filling up, then mostly unmaps */
		unmap = (r >> 40) % 100u < (op < 8000 ? 30u : 70u);
		for (uint32_t i = 0; i < n; i++) {
			any |= ref[pg + i];
			all &= ref[pg + i];
		}
		if (unmap) {
			want = all ? 0 : MMCHAL_ENOENT;
			assert_int_equal(
				io.ops->unmap(io.ctx, 0x10000u + (uint64_t)pg * PG, n * PG), want);
			if (want == 0) {
				for (uint32_t i = 0; i < n; i++)
					ref[pg + i] = false;
				count -= n;
			}
		} else {
			want = any ? MMCHAL_EALREADY : 0;
			assert_int_equal(io.ops->map(io.ctx, 0x10000u + (uint64_t)pg * PG,
						     RAM_BASE + (uint64_t)(pg % 256u) * PG, n * PG,
						     RD | WR),
					 want);
			if (want == 0) {
				for (uint32_t i = 0; i < n; i++)
					ref[pg + i] = true;
				count += n;
			}
		}
		if (count > peak)
			peak = count;
		assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
		assert_true(st.mapped_pages == count);
	}
	assert_true(peak > 1024); /* the table grew at least twice */
	for (uint32_t pg = 0; pg < NPAGES; pg += 7) {
		uint8_t *ram = mmchal_sim_phys_to_host(d.sim, RAM_BASE + (uint64_t)(pg % 256u) * PG,
						       PG);

		if (!ref[pg])
			continue;
		ram[0] = 0;
		assert_true(dm_read(&d, pg % 64u, 0x10000u + (uint64_t)pg * PG));
		assert_int_equal(ram[0], pg % 64u + 1u);
		checked++;
	}
	assert_true(checked > 50);
	/* every page as the model says: a one-page map answers EALREADY exactly there */
	for (uint32_t pg = 0; pg < NPAGES; pg++)
		assert_int_equal(
			io.ops->map(io.ctx, 0x10000u + (uint64_t)pg * PG, RAM_BASE, PG, RD),
			ref[pg] ? MMCHAL_EALREADY : 0);
	drv_close(&d);
}

/* The table's home slot for an IOVA page (sim/iommu.c: the murmur3 64-bit
   finaliser's first steps, masked to the table size). */
static uint32_t home_of(uint64_t vpn, uint32_t cap)
{
	vpn ^= vpn >> 33;
	vpn *= 0xff51afd7ed558ccdull;
	vpn ^= vpn >> 33;
	return (uint32_t)(vpn & (cap - 1u));
}

/*
 * Removal from a probe chain that wraps from the table's last slot to its
 * first (a fresh table has 1024 slots): pages whose home is slot 1022, 1023, 0
 * and 1 fill slots across the end; removing any one of them, then the others
 * one by one, leaves exactly the rest findable.
 */
static void test_table_wrapping_chain(void **state)
{
	static const uint32_t homes[] = {1023, 1023, 1023, 1022, 1022, 0, 0, 1, 1023};
	enum { N = sizeof(homes) / sizeof(homes[0]) };
	uint64_t vpn[N];
	struct mmchal_sim *sim;
	struct mmchal_iommu io;

	(void)state;
	for (unsigned k = 0; k < N; k++) {
		uint64_t v = k == 0 ? 1 : vpn[k - 1] + 1u;
		bool fresh;

		do {
			fresh = home_of(v, 1024) == homes[k];
			for (unsigned j = 0; j < k && fresh; j++)
				fresh = vpn[j] != v;
			if (!fresh)
				v++;
		} while (!fresh);
		vpn[k] = v;
	}
	for (unsigned first = 0; first < N; first++) {
		bool mapped[N];

		assert_int_equal(mmchal_sim_create(NULL, &sim), 0);
		assert_int_equal(mmchal_sim_iommu_attach(sim, NULL), 0);
		assert_int_equal(mmchal_sim_iommu(sim, &io), 0);
		for (unsigned k = 0; k < N; k++) {
			assert_int_equal(io.ops->map(io.ctx, vpn[k] * PG, RAM_BASE, PG, RD), 0);
			mapped[k] = true;
		}
		for (unsigned step = 0; step < N; step++) {
			unsigned k = (first + step) % N;

			assert_int_equal(io.ops->unmap(io.ctx, vpn[k] * PG, PG), 0);
			mapped[k] = false;
			for (unsigned j = 0; j < N; j++)
				assert_int_equal(io.ops->map(io.ctx, vpn[j] * PG, RAM_BASE, PG, RD),
						 mapped[j] ? MMCHAL_EALREADY : 0);
			/* the probe mapped the absent ones: take them out again */
			for (unsigned j = 0; j < N; j++)
				if (!mapped[j])
					assert_int_equal(io.ops->unmap(io.ctx, vpn[j] * PG, PG), 0);
		}
		mmchal_sim_destroy(sim);
	}
}

/*
 * TLB sizes and stale hits: the default TLB holds 32 translations (the 33rd
 * evicts the first), a 3-entry one holds 3 (a FIFO over all its slots), and a
 * page unmapped and mapped elsewhere without a flush is a stale hit that
 * still reaches the old page. mmchal_sim_iommu() refuses NULL arguments.
 */
static void test_tlb_sizes_and_stale_remap(void **state)
{
	struct mmchal_sim_iommu_config three = {0, 0, 3, false};
	struct mmchal_sim_iommu_stats st;
	struct mmchal_iommu io;
	uint8_t *mem;
	struct drv d;

	(void)state;
	open_emmc(&d);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), MMCHAL_ENOENT);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, NULL), 0);
	assert_int_equal(mmchal_sim_iommu(NULL, &io), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_iommu(d.sim, NULL), MMCHAL_EINVAL);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x10000u, RAM_BASE, 33 * PG, WR), 0);
	for (unsigned i = 0; i < 32; i++)
		assert_true(dm_read(&d, 0, 0x10000u + i * PG));
	assert_true(dm_read(&d, 0, 0x10000u)); /* still cached */
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.tlb_hits == 1);
	assert_true(dm_read(&d, 0, 0x10000u + 32u * PG)); /* evicts page 0 */
	assert_true(dm_read(&d, 0, 0x10000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.tlb_hits == 1);
	assert_true(st.translations == 35);
	drv_close(&d);

	open_emmc(&d);
	mem = mmchal_sim_phys_to_host(d.sim, RAM_BASE, 1u << 20);
	assert_int_equal(mmchal_sim_iommu_attach(d.sim, &three), 0);
	assert_int_equal(mmchal_sim_iommu(d.sim, &io), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x10000u, RAM_BASE, 4 * PG, WR), 0);
	for (unsigned i = 0; i < 3; i++)
		assert_true(dm_read(&d, 0, 0x10000u + i * PG));
	assert_true(dm_read(&d, 0, 0x10000u));
	assert_true(dm_read(&d, 0, 0x11000u));
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.tlb_hits == 2);
	/* page 0 moved to RAM page 8, no flush: the device still reaches page 0 */
	assert_int_equal(io.ops->unmap(io.ctx, 0x10000u, PG), 0);
	assert_int_equal(io.ops->map(io.ctx, 0x10000u, RAM_BASE + 8u * PG, PG, WR), 0);
	mem[0] = 0;
	mem[8 * PG] = 0;
	assert_true(dm_read(&d, 4, 0x10000u));
	assert_int_equal(mem[0], 5);
	assert_int_equal(mem[8 * PG], 0);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.stale_hits == 1);
	/* flushed: the new page */
	assert_int_equal(io.ops->flush(io.ctx, 0x10000u, PG), 0);
	assert_true(dm_read(&d, 5, 0x10000u));
	assert_int_equal(mem[8 * PG], 6);
	assert_int_equal(mmchal_sim_iommu_stats(d.sim, &st), 0);
	assert_true(st.stale_hits == 1);
	drv_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_config),
		cmocka_unit_test(test_map_unmap_edges),
		cmocka_unit_test(test_table_against_model),
		cmocka_unit_test(test_table_wrapping_chain),
		cmocka_unit_test(test_tlb_sizes_and_stale_remap),
		cmocka_unit_test(test_tlb_fifo_and_flush_range),
		cmocka_unit_test(test_fault_is_not_an_access),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
