/*
 * Reference model of the IOVA allocator (see iova_ref.h).
 */
#include "iova_ref.h"

#include <string.h>

#include <mmchal/error.h>

void iova_ref_init(struct iova_ref *r, uint64_t ap_start, uint64_t ap_end)
{
	r->ap_start = ap_start;
	r->ap_end = ap_end;
	r->n = 0;
}

static bool fit(uint64_t a, uint64_t b, uint64_t limit, uint64_t npages, uint64_t blk, bool aligned,
		uint64_t *x)
{
	if (a > limit)
		return false;
	if (b > limit)
		b = limit;
	if (aligned) {
		uint64_t s;

		if (b + 1u < blk)
			return false;
		s = (b + 1u - blk) / blk * blk;
		if (s < a)
			return false;
		*x = s;
		return true;
	}
	if (b - a + 1u < npages)
		return false;
	*x = b - npages + 1u;
	return true;
}

int iova_ref_alloc(struct iova_ref *r, uint64_t npages, uint64_t limit, bool aligned,
		   uint64_t *start)
{
	uint64_t blk = 1, x = 0;
	uint32_t i;

	if (npages == 0)
		return MMCHAL_EINVAL;
	if (limit < r->ap_start)
		return MMCHAL_ERANGE;
	if (limit > r->ap_end)
		limit = r->ap_end;
	aligned = aligned && npages > 1u;
	if (aligned) {
		while (blk < npages)
			blk <<= 1;
	} else {
		blk = npages;
	}
	if (blk > r->ap_end - r->ap_start + 1u)
		return MMCHAL_ERANGE;
	if (r->n == IOVA_REF_MAX)
		return MMCHAL_ENOMEM;
	for (i = r->n + 1u; i-- > 0;) {
		uint64_t lo = i == 0 ? r->ap_start : r->e[i - 1u] + 1u;
		uint64_t hi = i == r->n ? r->ap_end : r->s[i] - 1u;

		if (i < r->n && r->s[i] == lo)
			continue; /* empty gap */
		if (i == r->n && i > 0 && r->e[i - 1u] == r->ap_end)
			continue;
		if (fit(lo, hi, limit, npages, blk, aligned, &x)) {
			memmove(&r->s[i + 1u], &r->s[i], (r->n - i) * sizeof(r->s[0]));
			memmove(&r->e[i + 1u], &r->e[i], (r->n - i) * sizeof(r->e[0]));
			r->s[i] = x;
			r->e[i] = x + npages - 1u;
			r->n++;
			*start = x;
			return 0;
		}
	}
	return MMCHAL_ENOMEM;
}

static int index_of(const struct iova_ref *r, uint64_t start)
{
	uint32_t lo = 0, hi = r->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2u;

		if (r->s[mid] < start)
			lo = mid + 1u;
		else
			hi = mid;
	}
	return (lo < r->n && r->s[lo] == start) ? (int)lo : -1;
}

int iova_ref_free(struct iova_ref *r, uint64_t start, uint64_t *npages)
{
	int i = index_of(r, start);

	if (i < 0)
		return MMCHAL_ENOENT;
	*npages = r->e[i] - r->s[i] + 1u;
	memmove(&r->s[i], &r->s[i + 1], (r->n - (uint32_t)i - 1u) * sizeof(r->s[0]));
	memmove(&r->e[i], &r->e[i + 1], (r->n - (uint32_t)i - 1u) * sizeof(r->e[0]));
	r->n--;
	return 0;
}

int iova_ref_find(const struct iova_ref *r, uint64_t pfn, uint64_t *start, uint64_t *npages)
{
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->s[i] <= pfn && pfn <= r->e[i]) {
			*start = r->s[i];
			*npages = r->e[i] - r->s[i] + 1u;
			return 0;
		}
	}
	return MMCHAL_ENOENT;
}

int iova_ref_compare(const struct iova_ref *r, const struct mmchal_iova *v)
{
	struct mmchal_iova_stats st;
	uint64_t pages = 0;

	if (mmchal_iova_check(v) != 0)
		return 1;
	if (mmchal_iova_get_stats(v, &st) != 0)
		return 2;
	for (uint32_t i = 0; i < r->n; i++) {
		uint64_t s = 0, n = 0;

		if (mmchal_iova_find(v, r->s[i], &s, &n) != 0 || s != r->s[i] ||
		    n != r->e[i] - r->s[i] + 1u)
			return 3;
		if (mmchal_iova_find(v, r->e[i], &s, &n) != 0 || s != r->s[i])
			return 4;
		pages += n;
	}
	if (st.live_ranges != r->n || st.live_pages != pages)
		return 5;
	return 0;
}
