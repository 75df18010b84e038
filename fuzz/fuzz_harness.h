/*
 * What the controller fuzz targets (fuzz_sdhi.c, fuzz_sdhci.c) share: guarded
 * caller buffers, the log of the bytes that crossed the bus, the check of a
 * return value against the documented ones, and the requests a header
 * describes in 4 bytes, run under the host core with the checks every
 * controller must pass.
 *
 * A broken property ends the run by longjmp() to fuzz_h::jb, with its number
 * in fuzz_h::bad; the target owns the setjmp.
 */
#ifndef MMCHAL_FUZZ_HARNESS_H
#define MMCHAL_FUZZ_HARNESS_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/host_core.h>

#define FH_GUARD       64u   /**< guard bytes on each side of a buffer */
#define FH_GUARD_BYTE  0xa5u /**< their value */
#define FH_MAX_REGIONS 8u    /**< buffers alive at once */
#define FH_MAX_SG      3u    /**< entries of a request's list */
#define FH_LOG_MAX     8192u /**< bytes of a data phase the log keeps */

/** Property numbers the shared checks report (the targets number the rest). */
enum fh_prop {
	FH_P_RETVAL = 2, /**< a call returned a value its header does not document */
	FH_P_DONE = 3,   /**< a done callback ran other than exactly once */
	FH_P_GUARD = 5,  /**< a guard byte, or a write request's buffer, changed */
	FH_P_DATA = 7,   /**< a successful data request's buffers differ from the bus */
	FH_P_BUSY = 8,   /**< refused as busy with nothing in flight */
};

/**
 * The first error of a completed request, as mmchal_host_request_sync()
 * gives it: SET_BLOCK_COUNT, the command, the data phase, STOP; 0 if none.
 * Shared with the card target (fuzz_card.c), which checks the card layer's
 * answers against it.
 */
static inline int fh_first_error(const struct mmchal_request *req)
{
	if (req->sbc && req->sbc->error)
		return req->sbc->error;
	if (req->cmd->error)
		return req->cmd->error;
	if (req->data && req->data->error)
		return req->data->error;
	return req->stop ? req->stop->error : 0;
}

/** One caller buffer: FH_GUARD bytes, @c len bytes at @c cpu, FH_GUARD bytes. */
struct fh_region {
	uint8_t *base;
	uint8_t *cpu;
	uint64_t phys;
	uint32_t len;
	bool no_data; /**< not a data buffer (a descriptor table, a scratch buffer) */
	bool scratch; /**< target's use */
};

/** The shared state of one run. */
struct fuzz_h {
	jmp_buf jb;
	int bad;
	bool quiet;         /**< no message on a broken property (seed generation) */
	const char *name;   /**< the target, for messages */
	uint64_t high_base; /**< buffers of a request with bit 7 of its list byte; 0 = none */
	/* the input's register stream, or the record of an oracle's answers */
	const uint8_t *p;
	size_t n;
	unsigned int tail; /**< once used up: 0 and all ones in turn, 1 zeros, 2 ones */
	bool tail_ones;
	uint8_t *rec;
	size_t rec_cap, rec_len;
	struct fh_region reg[FH_MAX_REGIONS];
	unsigned int nreg;
	/* what crossed the bus in the current data phase, in transfer order */
	uint8_t log[FH_LOG_MAX];
	uint32_t logged;
};

/** End the run: property @p prop is broken (@p what and @p v say how). */
_Noreturn void fh_broken(struct fuzz_h *f, int prop, const char *what, uint64_t v);

/** The next @p nbytes-byte value of the stream, little-endian; once the stream is
    used up, the pattern fuzz_h::tail chooses, for the whole value. */
uint64_t fh_take(struct fuzz_h *f, unsigned int nbytes);
/** Seed generation: record an oracle's answer @p val as the stream would hold
    it; returns it cut to @p nbytes. */
uint64_t fh_record(struct fuzz_h *f, uint64_t val, unsigned int nbytes);

/** A new guarded buffer of @p len bytes at device address @p phys, cache-line aligned. */
struct fh_region *fh_region_add(struct fuzz_h *f, uint32_t len, uint64_t phys);
/** Free every buffer after the first @p keep. */
void fh_regions_free(struct fuzz_h *f, unsigned int keep);
/** Every guard byte intact, else ::FH_P_GUARD. */
void fh_guards_check(struct fuzz_h *f);
/** The data buffer holding [phys, phys + len), or NULL. */
struct fh_region *fh_region_at(struct fuzz_h *f, uint64_t phys, uint64_t len);
/** Log the @p n low bytes of @p v, least significant first. */
void fh_log(struct fuzz_h *f, uint64_t v, unsigned int n);

/**
 * After a data request that succeeded: its buffers hold what crossed the bus,
 * in transfer order. Byte t of the transfer is at log offset
 * t / blksz * @p per + t % blksz, @p per being the bytes one block takes in the
 * log (whole port words through a data port, blksz by DMA).
 */
void fh_data_check(struct fuzz_h *f, const struct mmchal_data *d, uint32_t per);

/** @p rc is one of the @p n values of @p ok, else ::FH_P_RETVAL (at @p line). */
void fh_expect(struct fuzz_h *f, int rc, const int *ok, size_t n, int line);
#define FH_EXPECT(f, rc, ...)                                                      \
	do {                                                                       \
		static const int ok_[] = {__VA_ARGS__};                            \
		fh_expect((f), (rc), ok_, sizeof(ok_) / sizeof(ok_[0]), __LINE__); \
	} while (0)

/** Timeouts a header byte chooses from, ms. */
extern const uint32_t fh_ms_sel[4];

/**
 * One request of 4 header bytes:
 *  d[0] bits 5:0 mod 10 the kind (0 CMD0, 1 CMD13, 2 CMD7 R1b, 3 CMD9 R2,
 *       4 CMD1 R3, 5 read, 6 write, 7 set_ios, 8 queries, 9 an SDIO block of
 *       1..512 bytes), bit 7 by mmchal_host_request() + poll, bit 6 a done
 *       callback for a synchronous one;
 *  d[1] bits 2:0 blocks - 1; bit 6 CMD23, else bit 5 an R1 STOP (R1b without);
 *       for SDIO bits 7:3 the low bits of the size, bit 7 a write;
 *  d[2] the list: 1 + d[2] % 3 entries, bits 3:2 the first entry's offset
 *       (0, 128, 2, 1), bit 6 equal entries, bit 7 above ::fuzz_h::high_base;
 *       for SDIO also the high bits of the size;
 *  d[3] bits 1:0 the busy timeout, bit 2 a data timeout, bits 5:4 the
 *       synchronous timeout.
 */
struct fh_req {
	unsigned int kind;
	bool async, write, is_data;
	bool sync_done;   /**< a done callback for a synchronous request */
	uint32_t sync_ms; /**< its timeout */
	struct mmchal_cmd cmd, stop, sbc;
	struct mmchal_data data;
	struct mmchal_request req;
	struct mmchal_sg sg[FH_MAX_SG];
	uint8_t copy[FH_MAX_SG][4096];
};

/** Build the request of @p d in @p r (kinds 7 and 8 only set @c kind); buffers
    from @p phys_base on. */
void fh_req_build(struct fuzz_h *f, const uint8_t *d, uint64_t phys_base, struct fh_req *r);

/** The set_ios settings of a kind-7 request: d[1] bits 2:0 the clock (0, 1 Hz,
    400 kHz, 26, 52, 200 MHz, 100 kHz, 4 GHz), bits 4:3 the bus width; d[2] mod 12
    the timing, (d[2] >> 4) mod 3 the power mode, (d[2] >> 6) mod 3 the signal
    voltage. */
void fh_ios_build(const uint8_t *d, struct mmchal_ios *ios);

/** What a controller may answer, beyond what the host core itself returns. */
struct fh_answers {
	const int *async_ok; /**< mmchal_host_request() */
	size_t n_async;
	const int *sync_ok; /**< mmchal_host_request_sync() and a completion's first error */
	size_t n_sync;
	bool busy_is_bad; /**< EBUSY means refused with nothing in flight */
};

/**
 * Run the built request @p r on @p host (its done callback counted) and check
 * what every controller must: documented returns, the done callback exactly
 * once and never after a refusal, poll's answer, the counters, no busy
 * refusal, guard bytes, a write's buffers unchanged. Returns its result (the
 * first error of a completed asynchronous one).
 */
int fh_req_run(struct fuzz_h *f, struct mmchal_host *host, struct fh_req *r,
	       const struct fh_answers *ans);

#endif /* MMCHAL_FUZZ_HARNESS_H */
