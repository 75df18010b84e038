/*
 * What the controller fuzz targets share (fuzz_harness.h).
 */
#include "fuzz_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmchal/error.h>

const uint32_t fh_ms_sel[4] = {0, 1, 5, 50};

_Noreturn void fh_broken(struct fuzz_h *f, int prop, const char *what, uint64_t v)
{
	if (!f->quiet)
		fprintf(stderr, "%s: property %d broken: %s (0x%llx)\n", f->name, prop, what,
			(unsigned long long)v);
	f->bad = prop;
	longjmp(f->jb, 1);
}

/* ------------------------------------------------------------ the stream */

static uint64_t cut(uint64_t v, unsigned int nbytes)
{
	return nbytes < 8 ? v & ((1ull << (8u * nbytes)) - 1u) : v;
}

uint64_t fh_take(struct fuzz_h *f, unsigned int nbytes)
{
	uint64_t val = 0;

	if (f->n < nbytes) {
		/* used up: the pattern, for this whole value */
		bool ones = f->tail == 2u || (f->tail != 1u && f->tail_ones);

		f->tail_ones = !f->tail_ones;
		f->n = 0;
		return ones ? cut(UINT64_MAX, nbytes) : 0;
	}
	for (unsigned int i = 0; i < nbytes; i++)
		val |= (uint64_t)f->p[i] << (8u * i);
	f->p += nbytes;
	f->n -= nbytes;
	return val;
}

uint64_t fh_record(struct fuzz_h *f, uint64_t val, unsigned int nbytes)
{
	for (unsigned int i = 0; i < nbytes; i++)
		if (f->rec_len < f->rec_cap)
			f->rec[f->rec_len++] = (uint8_t)(val >> (8u * i));
	return cut(val, nbytes);
}

/* ------------------------------------------------------------ buffers */

struct fh_region *fh_region_add(struct fuzz_h *f, uint32_t len, uint64_t phys)
{
	struct fh_region *r;

	if (f->nreg == FH_MAX_REGIONS)
		abort(); /* the targets ask for at most FH_MAX_REGIONS */
	r = &f->reg[f->nreg++];
	/* cache-line aligned, as DMA buffers of a non-coherent system are */
	r->base = aligned_alloc(FH_GUARD, (len + 3u * FH_GUARD - 1u) / FH_GUARD * FH_GUARD);
	if (!r->base)
		abort();
	memset(r->base, FH_GUARD_BYTE, len + 2u * FH_GUARD);
	r->cpu = r->base + FH_GUARD;
	r->phys = phys;
	r->len = len;
	r->no_data = false;
	r->scratch = false;
	return r;
}

void fh_regions_free(struct fuzz_h *f, unsigned int keep)
{
	for (unsigned int i = keep; i < f->nreg; i++)
		free(f->reg[i].base);
	if (f->nreg > keep)
		f->nreg = keep;
}

void fh_guards_check(struct fuzz_h *f)
{
	for (unsigned int i = 0; i < f->nreg; i++) {
		const struct fh_region *r = &f->reg[i];

		for (uint32_t k = 0; k < FH_GUARD; k++)
			if (r->base[k] != FH_GUARD_BYTE || r->cpu[r->len + k] != FH_GUARD_BYTE)
				fh_broken(f, FH_P_GUARD, "guard byte changed, region", i);
	}
}

struct fh_region *fh_region_at(struct fuzz_h *f, uint64_t phys, uint64_t len)
{
	for (unsigned int i = 0; i < f->nreg; i++) {
		struct fh_region *r = &f->reg[i];

		if (r->no_data)
			continue;
		if (phys >= r->phys && len <= r->len && phys - r->phys <= r->len - len)
			return r;
	}
	return NULL;
}

void fh_log(struct fuzz_h *f, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++, f->logged++)
		if (f->logged < FH_LOG_MAX)
			f->log[f->logged] = (uint8_t)(v >> (8u * i));
}

void fh_data_check(struct fuzz_h *f, const struct mmchal_data *d, uint32_t per)
{
	uint32_t t = 0;

	for (uint32_t i = 0; i < d->sg_len; i++) {
		const uint8_t *b = d->sg[i].cpu;

		for (uint32_t k = 0; k < d->sg[i].len; k++, t++) {
			uint32_t at = t / d->blksz * per + t % d->blksz;

			if (at < FH_LOG_MAX && b[k] != f->log[at])
				fh_broken(f, FH_P_DATA,
					  "buffer byte differs from the bus at transfer offset", t);
		}
	}
}

void fh_expect(struct fuzz_h *f, int rc, const int *ok, size_t n, int line)
{
	char what[64];

	for (size_t i = 0; i < n; i++)
		if (rc == ok[i])
			return;
	snprintf(what, sizeof(what), "undocumented return value, line %d", line);
	fh_broken(f, FH_P_RETVAL, what, (uint64_t)rc);
}

/* ------------------------------------------------------------ requests */

/* The request's buffers: up to FH_MAX_SG entries, each its own guarded buffer. */
static uint32_t make_sg(struct fuzz_h *f, uint8_t sel, uint32_t total, uint64_t phys_base,
			struct mmchal_sg *sg)
{
	static const uint32_t offs[4] = {0, 128, 2, 1};
	uint64_t base = (sel & 0x80u) && f->high_base ? f->high_base : phys_base;
	uint32_t n = 1u + (sel % FH_MAX_SG), left = total, i;

	if (n > total)
		n = total;
	for (i = 0; i < n; i++) {
		uint32_t len = i + 1u == n ? left : (sel & 0x40u) ? total / n : 512u;
		struct fh_region *r;

		if (len > left - (n - 1u - i))
			len = left - (n - 1u - i);
		if (len == 0)
			len = 1;
		r = fh_region_add(f, len,
				  base + 0x00100000ull * f->nreg +
					  (i == 0 ? offs[(sel >> 2) & 3u] : 0));
		for (uint32_t k = 0; k < len; k++)
			r->cpu[k] = (uint8_t)(k ^ 0x5au);
		sg[i].cpu = r->cpu;
		sg[i].phys = r->phys;
		sg[i].len = len;
		left -= len;
	}
	return n;
}

void fh_req_build(struct fuzz_h *f, const uint8_t *d, uint64_t phys_base, struct fh_req *r)
{
	struct mmchal_cmd *cmd = &r->cmd;
	struct mmchal_data *data = &r->data;

	memset(r, 0, offsetof(struct fh_req, copy));
	r->kind = (d[0] & 0x3fu) % 10u;
	r->async = (d[0] & 0x80u) != 0;
	r->sync_done = (d[0] & 0x40u) != 0;
	r->sync_ms = fh_ms_sel[(d[3] >> 4) & 3u];
	cmd->busy_timeout_ms = fh_ms_sel[d[3] & 3u];
	switch (r->kind) {
	case 0: /* CMD0 GO_IDLE_STATE: no response */
		cmd->opcode = 0;
		cmd->flags = MMCHAL_RSP_NONE;
		break;
	case 1: /* CMD13 SEND_STATUS: R1 */
		cmd->opcode = 13;
		cmd->arg = 1u << 16;
		cmd->flags = MMCHAL_RSP_R1;
		break;
	case 2: /* CMD7 SELECT_CARD: R1b */
		cmd->opcode = 7;
		cmd->arg = 1u << 16;
		cmd->flags = MMCHAL_RSP_R1B;
		break;
	case 3: /* CMD9 SEND_CSD: R2 */
		cmd->opcode = 9;
		cmd->arg = 1u << 16;
		cmd->flags = MMCHAL_RSP_R2;
		break;
	case 4: /* CMD1 SEND_OP_COND: R3 */
		cmd->opcode = 1;
		cmd->arg = 0x40ff8080u;
		cmd->flags = MMCHAL_RSP_R3;
		break;
	case 5: /* reads: CMD17 / CMD18 */
	case 6: /* writes: CMD24 / CMD25 */
	case 9: /* SDIO CMD53-like block of 1..512 bytes (reads and writes) */
		r->is_data = true;
		r->write = r->kind == 6 || (r->kind == 9 && (d[1] & 0x80u));
		data->dir = r->write ? MMCHAL_DIR_TO_CARD : MMCHAL_DIR_FROM_CARD;
		data->blocks = 1u + (d[1] & 7u);
		data->blksz = r->kind == 9 ? 1u + (((uint32_t)d[2] << 1 | (d[1] >> 3)) & 0x1ffu)
					   : 512u;
		data->timeout_ns = (d[3] & 4u) ? 1000000u : 0;
		if (r->kind == 9) {
			cmd->opcode = 53;
			cmd->flags = MMCHAL_RSP_R5;
		} else {
			cmd->opcode = r->write ? (data->blocks > 1 ? 25u : 24u)
					       : (data->blocks > 1 ? 18u : 17u);
			cmd->flags = MMCHAL_RSP_R1;
		}
		cmd->arg = d[3];
		if (data->blocks > 1 && r->kind != 9) {
			if (d[1] & 0x40u) {
				r->sbc.opcode = 23;
				r->sbc.arg = data->blocks;
				r->sbc.flags = MMCHAL_RSP_R1;
				r->req.sbc = &r->sbc;
			} else {
				r->stop.opcode = 12;
				r->stop.flags = (d[1] & 0x20u) ? MMCHAL_RSP_R1 : MMCHAL_RSP_R1B;
				r->req.stop = &r->stop;
			}
		}
		data->sg_len = make_sg(f, d[2], data->blksz * data->blocks, phys_base, r->sg);
		data->sg = r->sg;
		for (uint32_t i = 0; i < data->sg_len; i++)
			memcpy(r->copy[i], r->sg[i].cpu, r->sg[i].len);
		r->req.data = data;
		break;
	default: /* 7 set_ios, 8 queries: the target's */
		return;
	}
	r->req.cmd = cmd;
}

void fh_ios_build(const uint8_t *d, struct mmchal_ios *ios)
{
	static const uint32_t hz[8] = {0,        1,         400000, 26000000,
				       52000000, 200000000, 100000, 0xffffffffu};

	memset(ios, 0, sizeof(*ios));
	ios->clock_hz = hz[d[1] & 7u];
	ios->bus_width = (d[1] & 0x18u) == 0 ? MMCHAL_BUS_WIDTH_1
			 : (d[1] & 0x10u)    ? MMCHAL_BUS_WIDTH_8
					     : MMCHAL_BUS_WIDTH_4;
	ios->timing = (enum mmchal_timing)(d[2] % 12u);
	ios->power_mode = (enum mmchal_power_mode)((d[2] >> 4) % 3u);
	ios->signal_voltage = (enum mmchal_signal_voltage)((d[2] >> 6) % 3u);
}

static unsigned int done_calls;

static void on_done(struct mmchal_request *req)
{
	(void)req;
	done_calls++;
}

static void busy_refusal(struct fuzz_h *f, const struct fh_answers *ans, int rc)
{
	if (ans->busy_is_bad && rc == MMCHAL_EBUSY)
		fh_broken(f, FH_P_BUSY, "refused as busy with nothing in flight", 0);
}

int fh_req_run(struct fuzz_h *f, struct mmchal_host *host, struct fh_req *r,
	       const struct fh_answers *ans)
{
	struct mmchal_request *req = &r->req;
	struct mmchal_host_stats st0, st1;
	int rc;

	done_calls = 0;
	if (mmchal_host_stats(host, &st0) != 0)
		abort();
	if (r->async) {
		req->done = on_done;
		rc = mmchal_host_request(host, req);
		busy_refusal(f, ans, rc);
		fh_expect(f, rc, ans->async_ok, ans->n_async, __LINE__);
		if (rc != 0 && done_calls)
			fh_broken(f, FH_P_DONE, "done called for a refused request", done_calls);
		while (rc == 0 && done_calls == 0) {
			int prc = mmchal_host_poll(host);

			FH_EXPECT(f, prc, 0, 1);
			if ((prc == 1) != (done_calls == 1))
				fh_broken(f, FH_P_DONE, "poll's answer and the done call disagree",
					  done_calls);
		}
		if (rc == 0) {
			rc = fh_first_error(req);
			/* nothing more comes for a completed request */
			(void)mmchal_host_poll(host);
		}
	} else {
		req->done = r->sync_done ? on_done : NULL;
		rc = mmchal_host_request_sync(host, req, r->sync_ms);
	}
	if (mmchal_host_stats(host, &st1) != 0)
		abort();
	busy_refusal(f, ans, rc);
	fh_expect(f, rc, ans->sync_ok, ans->n_sync, __LINE__);
	if (st1.requests - st0.requests > 1u ||
	    st1.completed - st0.completed != st1.requests - st0.requests)
		fh_broken(f, FH_P_DONE, "requests started and completed differ",
			  st1.completed - st0.completed);
	if (req->done && done_calls != st1.completed - st0.completed)
		fh_broken(f, FH_P_DONE, "done calls", done_calls);
	if (st1.rejected_busy != st0.rejected_busy)
		fh_broken(f, FH_P_BUSY, "refused as busy with nothing in flight", 0);
	fh_guards_check(f);
	for (uint32_t i = 0; r->is_data && r->write && i < r->data.sg_len; i++)
		if (memcmp(r->copy[i], r->sg[i].cpu, r->sg[i].len) != 0)
			fh_broken(f, FH_P_GUARD, "a write request's buffer changed, entry", i);
	return rc;
}
