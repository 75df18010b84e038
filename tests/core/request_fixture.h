/*
 * The request-path tests' shared fixture (test_host_request.c,
 * test_host_plan.c): one host over the scripted backend and the recording
 * port, optionally with a fake IOMMU domain and a bounce pool, the request
 * the tests build (CMD23 / CMD18 or CMD25 / CMD12 over pieces of buf), and
 * the checks both files use.
 */
#ifndef TESTS_CORE_REQUEST_FIXTURE_H
#define TESTS_CORE_REQUEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/host_core.h>

#include "core/host_fixture.h"

#define RQ_BUF_SIZE  (4u * 4096u)
#define RQ_POOL_SIZE (64u * 2048u)

/* setup_port() flags */
#define USE_BOUNCE    (1u << 0)
#define USE_IOMMU     (1u << 1)
/* with USE_IOMMU: a 64-bit domain whose aperture is the top 4 GiB but one page */
#define USE_IOMMU_TOP (1u << 2)

/* Set one DMA capability of both directions on the live host, then the
 * host's planner constants that follow from it. */
#define set_both_dirs(field, value)                              \
	do {                                                     \
		for (int d_ = 0; d_ < MMCHAL_DIR_COUNT; d_++)    \
			g.host.caps.dma.dir[d_].field = (value); \
		mmchal_host_plan_env_(&g.host);                  \
	} while (0)

struct rq_fixture {
	struct tb tb;
	struct rec_port rp;
	struct fiommu fi;
	struct mmchal_iommu iommu;
	struct mmchal_iommu_domain dom;
	struct mmchal_bounce bounce;
	struct mmchal_backend be;
	struct mmchal_port port;
	struct mmchal_host_cfg cfg;
	struct mmchal_host host;
	struct mmchal_dma_seg table[8];
};

extern struct rq_fixture g;
extern unsigned char buf[RQ_BUF_SIZE];   /* the caller's data, 4 KiB aligned */
extern unsigned char pool[RQ_POOL_SIZE]; /* the bounce pool's slots, 4 KiB aligned */
extern struct mmchal_cmd sbc, cmd, stop;
extern struct mmchal_data data;
extern struct mmchal_sg sg[4];
extern struct mmchal_request req;
extern unsigned ndone; /* done() calls since setup_port() */

void on_done(struct mmchal_request *r);
void setup_port(const struct mmchal_port_ops *ops, unsigned flags);
void host_up(void);
void merging_host(unsigned flags, uint32_t max_segs);
void make_rw(enum mmchal_dir dir, uint32_t blocks, uint32_t nsg);
void make_read(uint32_t blocks, uint32_t nsg);
void make_pages(uint32_t blocks, uint32_t n, uint32_t last);
void unalign_second(void);
void check_read_bytes(uint32_t n);
void stats(struct mmchal_host_stats *st);
void expect_rec(uint32_t i, enum rec_op op, const void *addr, size_t len);
void expect_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index);
void expect_plan_path(enum mmchal_plan plan, bool fast, bool full_check);
void expect_fast_plan(enum mmchal_plan plan, enum mmchal_plan_reason why, uint32_t index);
void expect_mapped(enum mmchal_plan plan, enum mmchal_plan_reason why);
void expect_mapped_by(enum mmchal_plan plan, enum mmchal_plan_reason why, bool full);
void retry_host_policy(enum mmchal_completion_policy policy);
void retry_host(void);

#endif /* TESTS_CORE_REQUEST_FIXTURE_H */
