/*
 * Trivially correct reference model of the IOVA allocator for differential
 * tests and the fuzz target: a sorted array of ranges, searched linearly
 * from the top. It implements the documented placement rule (mmchal/iova.h)
 * independently of the tree.
 */
#ifndef MMCHAL_TESTS_IOVA_REF_H
#define MMCHAL_TESTS_IOVA_REF_H

#include <stdbool.h>
#include <stdint.h>

#include <mmchal/iova.h>

#define IOVA_REF_MAX 2048u

struct iova_ref {
	uint64_t ap_start;
	uint64_t ap_end;
	uint32_t n;
	uint64_t s[IOVA_REF_MAX];
	uint64_t e[IOVA_REF_MAX];
};

void iova_ref_init(struct iova_ref *r, uint64_t ap_start, uint64_t ap_end);
int iova_ref_alloc(struct iova_ref *r, uint64_t npages, uint64_t limit, bool aligned,
		   uint64_t *start);
int iova_ref_free(struct iova_ref *r, uint64_t start, uint64_t *npages);
int iova_ref_find(const struct iova_ref *r, uint64_t pfn, uint64_t *start, uint64_t *npages);
/* 0 when the allocator holds exactly the model's ranges and passes its own
 * invariant check; otherwise a small number naming the first difference. */
int iova_ref_compare(const struct iova_ref *r, const struct mmchal_iova *v);

#endif /* MMCHAL_TESTS_IOVA_REF_H */
