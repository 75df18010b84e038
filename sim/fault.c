/*
 * Fault schedule: faults at a command ordinal, a data block or a virtual
 * time, plus seeded random faults. Everything is deterministic: the same
 * schedule, seed and driver give the same faults at the same instants.
 */
#include "sim_priv.h"

static bool is_data_kind(enum mmchal_sim_fault_kind k)
{
	return k == MMCHAL_SIM_FAULT_DATA_CRC || k == MMCHAL_SIM_FAULT_DATA_TIMEOUT ||
	       k == MMCHAL_SIM_FAULT_END_BIT || k == MMCHAL_SIM_FAULT_DMA_ERROR ||
	       k == MMCHAL_SIM_FAULT_IOMMU;
}

int mmchal_sim_fault_add(struct mmchal_sim *sim, const struct mmchal_sim_fault *f)
{
	if (!sim || !f || (unsigned)f->kind >= MMCHAL_SIM_FAULT_KIND_COUNT ||
	    (unsigned)f->trigger > MMCHAL_SIM_AT_TIME ||
	    (f->opcode > 63u && f->opcode != MMCHAL_SIM_ANY_OPCODE))
		return MMCHAL_EINVAL;
	for (unsigned i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
		if (!sim->faults[i].active) {
			sim->faults[i].f = *f;
			sim->faults[i].active = true;
			sim->faults[i].seen = 0;
			fault_reschedule_(sim);
			return 0;
		}
	}
	return MMCHAL_ENOSPC;
}

int mmchal_sim_fault_random(struct mmchal_sim *sim, uint64_t seed, uint32_t per_million,
			    uint32_t kinds)
{
	if (!sim || per_million > 1000000u)
		return MMCHAL_EINVAL;
	if (per_million && (!kinds || (kinds >> MMCHAL_SIM_FAULT_KIND_COUNT)))
		return MMCHAL_EINVAL;
	sim->rnd_state = seed;
	sim->rnd_ppm = per_million;
	sim->rnd_kinds = kinds;
	return 0;
}

void mmchal_sim_fault_clear(struct mmchal_sim *sim)
{
	if (!sim)
		return;
	memset(sim->faults, 0, sizeof(sim->faults));
	sim->rnd_ppm = 0;
	sim->ev[EV_FAULT] = T_NEVER;
	sim->x.nfaults = 0;
}

uint32_t mmchal_sim_faults_fired(const struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind)
{
	uint32_t n = 0;

	if (!sim)
		return 0;
	if ((unsigned)kind < MMCHAL_SIM_FAULT_KIND_COUNT)
		return sim->fired[kind];
	for (unsigned i = 0; i < MMCHAL_SIM_FAULT_KIND_COUNT; i++)
		n += sim->fired[i];
	return n;
}

void fault_fired_(struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind)
{
	sim->fired[kind]++;
}

void fault_reschedule_(struct mmchal_sim *sim)
{
	uint64_t t = T_NEVER;

	for (unsigned i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
		const struct sim_fault *f = &sim->faults[i];

		if (f->active && f->f.trigger == MMCHAL_SIM_AT_TIME && f->f.t_ns < t)
			t = f->f.t_ns;
	}
	if (t != T_NEVER && t < sim->now)
		t = sim->now;
	sim->ev[EV_FAULT] = t;
}

static void arm_data(struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind, uint32_t block)
{
	struct sim_xfer *x = &sim->x;

	if (x->nfaults < MMCHAL_SIM_MAX_FAULTS) {
		x->faults[x->nfaults].kind = kind;
		x->faults[x->nfaults].block = block;
		x->faults[x->nfaults].used = false;
		x->nfaults++;
	}
}

static bool match(const struct sim_fault *f, uint8_t idx)
{
	return f->f.opcode == MMCHAL_SIM_ANY_OPCODE || f->f.opcode == idx;
}

static void apply_cmd_kind(struct mmchal_sim *sim, enum mmchal_sim_fault_kind k,
			   struct cmd_faults *cf)
{
	switch (k) {
	case MMCHAL_SIM_FAULT_CMD_TIMEOUT:
		cf->timeout = true;
		fault_fired_(sim, k);
		break;
	case MMCHAL_SIM_FAULT_CMD_CRC:
		cf->crc = true;
		fault_fired_(sim, k);
		break;
	case MMCHAL_SIM_FAULT_STUCK_BUSY:
		cf->stuck = true; /* counted when applied */
		break;
	case MMCHAL_SIM_FAULT_CARD_REMOVE:
		cf->remove = true;
		fault_fired_(sim, k);
		break;
	default:
		break;
	}
}

/* Called before the card sees command @idx; data kinds are armed for block 0. */
void fault_on_cmd_(struct mmchal_sim *sim, uint8_t idx, bool has_data, struct cmd_faults *cf)
{
	bool data_armed[MMCHAL_SIM_FAULT_KIND_COUNT] = {false};

	for (unsigned i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
		struct sim_fault *f = &sim->faults[i];

		if (!f->active || f->f.trigger != MMCHAL_SIM_AT_CMD || !match(f, idx))
			continue;
		if (f->seen++ < f->f.count)
			continue;
		f->active = false;
		if (is_data_kind(f->f.kind))
			data_armed[f->f.kind] = has_data;
		else
			apply_cmd_kind(sim, f->f.kind, cf);
	}
	if (sim->rnd_ppm) {
		uint64_t r = sim_splitmix_(&sim->rnd_state);

		if (r % 1000000u < sim->rnd_ppm) {
			unsigned n = 0, pick;
			unsigned kinds[MMCHAL_SIM_FAULT_KIND_COUNT];

			for (unsigned k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++)
				if ((sim->rnd_kinds >> k) & 1u)
					kinds[n++] = k;
			pick = kinds[(r >> 32) % n];
			if (is_data_kind((enum mmchal_sim_fault_kind)pick))
				data_armed[pick] = has_data;
			else
				apply_cmd_kind(sim, (enum mmchal_sim_fault_kind)pick, cf);
		}
	}
	/* The data phase is set up after this call; keep the arming until then. */
	memcpy(sim->pending_data, data_armed, sizeof(data_armed));
}

/*
 * @block == UINT32_MAX: a data phase was just set up for the current command:
 * attach the faults armed at the command and the AT_BLOCK faults matching it.
 * Otherwise: block @block is about to move; draw a random data fault.
 */
void fault_on_block_(struct mmchal_sim *sim, uint32_t block)
{
	if (block == UINT32_MAX) {
		for (unsigned k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++)
			if (sim->pending_data[k])
				arm_data(sim, (enum mmchal_sim_fault_kind)k, 0);
		memset(sim->pending_data, 0, sizeof(sim->pending_data));
		for (unsigned i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
			struct sim_fault *f = &sim->faults[i];

			if (!f->active || f->f.trigger != MMCHAL_SIM_AT_BLOCK ||
			    !match(f, sim->x.opcode))
				continue;
			f->active = false;
			arm_data(sim, f->f.kind, f->f.count);
		}
		return;
	}
	if (sim->rnd_ppm) {
		uint64_t r = sim_splitmix_(&sim->rnd_state);

		if (r % 1000000u < sim->rnd_ppm) {
			unsigned n = 0;
			unsigned kinds[MMCHAL_SIM_FAULT_KIND_COUNT];

			for (unsigned k = 0; k < MMCHAL_SIM_FAULT_KIND_COUNT; k++)
				if (((sim->rnd_kinds >> k) & 1u) &&
				    (is_data_kind((enum mmchal_sim_fault_kind)k) ||
				     k == MMCHAL_SIM_FAULT_CARD_REMOVE))
					kinds[n++] = k;
			if (n)
				arm_data(sim, (enum mmchal_sim_fault_kind)kinds[(r >> 32) % n],
					 block);
		}
	}
}

/* An AT_TIME fault is due: act now, or hand it on to the next command/block. */
void fault_time_event_(struct mmchal_sim *sim)
{
	for (unsigned i = 0; i < MMCHAL_SIM_MAX_FAULTS; i++) {
		struct sim_fault *f = &sim->faults[i];

		if (!f->active || f->f.trigger != MMCHAL_SIM_AT_TIME || f->f.t_ns > sim->now)
			continue;
		switch (f->f.kind) {
		case MMCHAL_SIM_FAULT_CARD_REMOVE:
			f->active = false;
			if (sim->card.present) {
				fault_fired_(sim, f->f.kind);
				mmchal_sim_card_remove(sim);
			}
			break;
		case MMCHAL_SIM_FAULT_STUCK_BUSY:
			f->active = false;
			if (sim->card.present) {
				fault_fired_(sim, f->f.kind);
				sim->card.stuck = true;
				sim->card.busy = true;
			}
			break;
		case MMCHAL_SIM_FAULT_DMA_ERROR:
		case MMCHAL_SIM_FAULT_DATA_CRC:
		case MMCHAL_SIM_FAULT_DATA_TIMEOUT:
		case MMCHAL_SIM_FAULT_END_BIT:
		case MMCHAL_SIM_FAULT_IOMMU:
			if (sim->x.active) {
				f->active = false;
				arm_data(sim, f->f.kind,
					 sim->x.bstate == BUF_EMPTY ? sim->x.next
								    : sim->x.next + 1u);
			} else {
				f->f.trigger = MMCHAL_SIM_AT_BLOCK;
				f->f.opcode = MMCHAL_SIM_ANY_OPCODE;
				f->f.count = 0;
			}
			break;
		default:
			f->f.trigger = MMCHAL_SIM_AT_CMD;
			f->f.opcode = MMCHAL_SIM_ANY_OPCODE;
			f->f.count = 0;
			f->seen = 0;
			break;
		}
	}
	fault_reschedule_(sim);
}
