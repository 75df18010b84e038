/*
 * Test doubles for the host core: a scripted backend (events set by the test
 * or produced automatically on start) and a recording port (lock/unlock
 * pairing, cache operations with their ranges, a virtual clock, deferred
 * work kept until the test runs it). Portable: no allocation, no threads.
 */
#ifndef TESTS_CORE_HOST_FIXTURE_H
#define TESTS_CORE_HOST_FIXTURE_H

#include <mmchal/host_core.h>

#define TB_LOG_MAX  32
#define REC_LOG_MAX 256

struct tb_start {
	uint32_t opcode;
	bool data;
	enum mmchal_plan plan;
	uint32_t nsegs;
	struct mmchal_dma_seg seg0;
};

/* The scripted backend. */
struct tb {
	struct mmchal_host_caps host;
	struct mmchal_dma_caps dma;
	int probe_err;
	int caps_err;
	int start_err; /* returned by start for opcode start_err_op */
	uint32_t start_err_op;
	uint32_t start_err_after; /* starts of start_err_op that succeed before it fails */
	bool auto_complete;       /* start queues the events that finish the command */
	bool auto_data;           /* ...and the data phase with it */
	bool identity;            /* DMA addresses are CPU addresses: move the data */
	uint32_t fail_op;         /* opcode that fails (with auto_complete), 64 = none */
	uint32_t fail_ev;         /* MMCHAL_EV_CMD_ERROR or MMCHAL_EV_DATA_ERROR */
	int fail_err;             /* error code put into cmd->error / data->error */
	bool fail_once;           /* the fault fires only once */
	int auto_stop_err;        /* put into stop->error by the controller's own CMD12 */
	uint32_t pending;         /* events returned by the next handle_irq */
	int irq_err;              /* returned by handle_irq (events still reported) */
	uint32_t blocks_done;     /* answer of blocks_done; UINT32_MAX = all of the transfer */
	bool has_blocks_done;
	int blocks_done_err; /* blocks_done writes its answer, then fails with this */
	int busy_left;       /* card_busy returns 1 this many times */
	bool has_card_busy;
	uint8_t fill;           /* byte the card returns on reads */
	struct mmchal_xfer cur; /* last start */
	struct tb_start log[TB_LOG_MAX];
	uint32_t nstart;
	uint32_t nabort;
	uint32_t nirq;
	uint32_t nset_ios;
	bool locked_seen_unlocked;   /* an op ran without the host lock */
	const struct rec_port *port; /* to check the lock is held in every op */
	uint8_t written[8192];       /* what a write carried (first bytes) */
	uint32_t nwritten;
};

enum rec_op { REC_LOCK = 1, REC_UNLOCK, REC_CLEAN, REC_INVAL, REC_WORK };

struct rec_entry {
	enum rec_op op;
	uintptr_t addr;
	size_t len;
};

/* The recording port. */
struct rec_port {
	uint64_t now;
	uint64_t step_ns; /* added to the clock by every now_ns call */
	int depth;        /* lock nesting: must stay 0..1 */
	bool bad_nesting;
	uint32_t nlock;
	bool record_locks;
	struct rec_entry log[REC_LOG_MAX];
	uint32_t n;
	mmchal_work_fn work_fn; /* deferred work kept until rec_run_work() */
	void *work_arg;
	int work_err;
	bool work_now; /* run deferred work at once */
	/* called after every unlock (the lock released), as another context
	   would run then; NULL = none */
	void (*on_unlock)(struct rec_port *rp);
};

#define FI_MAPS 64

/* A fake IOMMU: 4 KiB pages that can merge, a 32-bit aperture; counts pages
 * and keeps the mappings so that a device address can be translated. */
struct fiommu {
	struct {
		uint64_t iova, phys, size; /* size 0: free slot */
	} map[FI_MAPS];
	int64_t pages; /* mapped now */
	uint32_t maps, unmaps, flushes;
	uint32_t fail_map_at; /* 1-based map call that fails; 0 = never */
	int unmap_err;        /* returned by every unmap (after unmapping) */
	uint64_t top;         /* nonzero: the aperture is [top, 2^64 - 4 KiB) instead */
};

extern const struct mmchal_iommu_ops fiommu_ops;

/* Device address -> CPU pointer: through @p ctx (a struct fiommu, or NULL for
 * none) when the address is mapped there, else the address itself (physical
 * addresses in these tests are CPU addresses). NULL when a mapping does not
 * hold [addr, addr + len). Matches mmchal_mock_dma_to_cpu_fn. */
void *fx_dma_to_cpu(void *ctx, mmchal_dma_addr_t addr, uint32_t len, enum mmchal_dir dir);

extern const struct mmchal_backend_ops tb_ops;
extern const struct mmchal_port_ops rec_ops_full;     /* lock, cache, work */
extern const struct mmchal_port_ops rec_ops_coherent; /* lock, work, no cache ops */
extern const struct mmchal_port_ops rec_ops_nolock;   /* clock only */

/* A PIO-only backend that completes on its own, a coherent port. */
void tb_init(struct tb *tb);
/* Give the backend an engine: DMA kind, max_segs, coherent or not. */
void tb_set_dma(struct tb *tb, enum mmchal_dma_kind kind, uint32_t max_segs, bool coherent);
void rec_init(struct rec_port *rp);
void rec_run_work(struct rec_port *rp);
uint32_t rec_count(const struct rec_port *rp, enum rec_op op);
/* strstr for the portable runner */
bool fx_contains(const char *hay, const char *needle);

#endif /* TESTS_CORE_HOST_FIXTURE_H */
