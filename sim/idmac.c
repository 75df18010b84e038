/*
 * SDHI internal DMAC (R-Car Gen3/Gen4, RZ/G2): DM_CM_* registers at unshifted
 * byte offsets (REFERENCE.md). One contiguous segment per transfer, moved
 * block by block between the SDHI buffer and memory; a misaligned start, an
 * address beyond the address width, or a failed memory access ends the
 * transfer with the channel's error bit.
 */
#include "sim_priv.h"

#define MODE_CH1_READ     (1ull << 16)
#define MODE_BUS_64       (3ull << 4)
#define MODE_ADDR_INCR    (1ull << 0)
#define BEAT              8u /* bytes per beat of the 64-bit bus */
#define CTRL_START        (1ull << 0)
#define RST_CH0           (1ull << 8)
#define RST_CH1           (1ull << 9)
#define INFO1_END_CH0     (1ull << 16)
#define INFO1_END_CH1     (1ull << 20)
#define INFO1_END_CH1_OLD (1ull << 17)
#define INFO2_ERR_CH0     (1ull << 16)
#define INFO2_ERR_CH1     (1ull << 17)

bool idmac_present_(const struct mmchal_sim *sim)
{
	/* An IP version (VERSION low byte) of 0x10 or more has the DMAC. */
	return (sim->cfg.version & 0xffu) >= 0x10u;
}

void idmac_reset_(struct mmchal_sim *sim)
{
	memset(&sim->dm, 0, sizeof(sim->dm));
	/* Reset bits are active-low (Linux writes RST_RESERVED_BITS & ~reset, then sets them). */
	sim->dm.rst = 0xffffffffull;
	sim->dm.info1_mask = 0xffffffffull;
	sim->dm.info2_mask = 0xffffffffull;
}

static uint64_t end_bit(const struct mmchal_sim *sim, bool read)
{
	if (!read)
		return INFO1_END_CH0;
	return sim->cfg.dmac_old_info1 ? INFO1_END_CH1_OLD : INFO1_END_CH1;
}

uint32_t idmac_status_(const struct mmchal_sim *sim)
{
	uint64_t v = (sim->dm.info1 & ~sim->dm.info1_mask) | (sim->dm.info2 & ~sim->dm.info2_mask);

	return v ? 1u : 0u;
}

static void dm_error(struct mmchal_sim *sim, bool read)
{
	sim->dm.running = false;
	sim->dm.info2 |= read ? INFO2_ERR_CH1 : INFO2_ERR_CH0;
	sim_update_line_(sim);
}

static void start(struct mmchal_sim *sim)
{
	struct sim_idmac *d = &sim->dm;
	bool read = d->mode & MODE_CH1_READ;
	uint64_t limit = sim->cfg.idmac_addr_bits >= 64 ? UINT64_MAX
							: (1ull << sim->cfg.idmac_addr_bits) - 1u;

	d->read = read;
	if (!(d->rst & (read ? RST_CH1 : RST_CH0)))
		return; /* channel held in reset: the start is ignored */
	/*
	 * Bits 5:4 select the bus width; every driver sets both (64-bit). What another
	 * width does is not documented: the model treats it as a DMA error
	 * (assumption).
	 */
	if ((d->mode & MODE_BUS_64) != MODE_BUS_64 || (d->addr & (sim->cfg.idmac_align - 1u)) ||
	    d->addr > limit) {
		dm_error(sim, read);
		return;
	}
	d->cur = d->addr;
	d->running = true;
	data_pump_(sim);
}

uint64_t idmac_read_(struct mmchal_sim *sim, uint32_t off)
{
	struct sim_idmac *d = &sim->dm;

	switch (off) {
	case DM_CM_DTRAN_MODE:
		return d->mode;
	case DM_CM_DTRAN_CTRL:
		return 0;
	case DM_CM_RST:
		return d->rst;
	case DM_CM_INFO1:
		return d->info1;
	case DM_CM_INFO1_MASK:
		return d->info1_mask;
	case DM_CM_INFO2:
		return d->info2;
	case DM_CM_INFO2_MASK:
		return d->info2_mask;
	case DM_DTRAN_ADDR:
		return d->addr;
	case DM_DTRAN_ADDR_H:
		return d->addr >> 32;
	default:
		return 0;
	}
}

void idmac_write_(struct mmchal_sim *sim, uint32_t off, uint64_t val, uint32_t width)
{
	struct sim_idmac *d = &sim->dm;

	if (width < 4)
		val &= 0xffffu;
	else if (width == 4)
		val &= 0xffffffffu;
	switch (off) {
	case DM_CM_DTRAN_MODE:
		d->mode = val;
		break;
	case DM_CM_DTRAN_CTRL:
		if (val & CTRL_START)
			start(sim);
		break;
	case DM_CM_RST:
		d->rst = val;
		if (!(val & RST_CH0) && !d->read)
			d->running = false;
		if (!(val & RST_CH1) && d->read)
			d->running = false;
		break;
	case DM_CM_INFO1:
		d->info1 &= val; /* write 0 to clear */
		break;
	case DM_CM_INFO1_MASK:
		d->info1_mask = val;
		break;
	case DM_CM_INFO2:
		d->info2 &= val;
		break;
	case DM_CM_INFO2_MASK:
		d->info2_mask = val;
		break;
	case DM_DTRAN_ADDR:
		d->addr = width == 8 ? val : (d->addr & 0xffffffff00000000ull) | val;
		break;
	case DM_DTRAN_ADDR_H:
		d->addr = (d->addr & 0xffffffffull) | (val << 32);
		break;
	default:
		break;
	}
	sim_update_line_(sim);
}

bool idmac_move_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len, bool read, uint32_t block)
{
	struct sim_idmac *d = &sim->dm;
	uint64_t limit = sim->cfg.idmac_addr_bits >= 64 ? UINT64_MAX
							: (1ull << sim->cfg.idmac_addr_bits) - 1u;

	if (!idmac_present_(sim) || !d->running || d->read != read)
		return false;
	if (data_take_fault_(sim, MMCHAL_SIM_FAULT_DMA_ERROR, block)) {
		dm_error(sim, read);
		return false;
	}
	if (sim->iommu && data_take_fault_(sim, MMCHAL_SIM_FAULT_IOMMU, block))
		sim->iommu->inject = true;
	if (d->cur + len - 1u > limit) {
		dm_error(sim, read);
		return false;
	}
	if (!(d->mode & MODE_ADDR_INCR) && !sim->cfg.idmac_fixed_addr_only) {
		/* Fixed address: every beat of the block goes to (or comes from) d->cur. */
		for (uint32_t off = 0; off < len; off += BEAT) {
			uint32_t n = len - off < BEAT ? len - off : BEAT;

			if (dma_access_(sim, d->cur, buf + off, n, read) < 0) {
				dm_error(sim, read);
				return false;
			}
		}
		sim->cnt.idmac_bytes += len;
		return true;
	}
	if (dma_access_(sim, d->cur, buf, len, read) < 0) {
		dm_error(sim, read);
		return false;
	}
	d->cur += len;
	sim->cnt.idmac_bytes += len;
	return true;
}

void idmac_data_end_(struct mmchal_sim *sim)
{
	struct sim_idmac *d = &sim->dm;

	if (!d->running)
		return;
	d->running = false;
	d->info1 |= end_bit(sim, d->read);
	sim_update_line_(sim);
}
