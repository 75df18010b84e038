/**
 * @file
 * @brief Internal: compiler hints of the IOMMU layer and the bounce pool.
 *        GCC and clang get them; any other C11 compiler gets correct code
 *        without them.
 */
#ifndef MMCHAL_IOMMU_HINTS_H
#define MMCHAL_IOMMU_HINTS_H

/* A step that several entries share (argument checks, unwinding, a tree
 * entry update). A speed build copies it into each caller, as it would a
 * macro, so that the common path pays no call. A build optimised for size
 * (-Os, -Oz: __OPTIMIZE_SIZE__) keeps one copy: the callers are few and the
 * call costs less flash than the copies (docs/footprint.md). An unoptimised
 * build (-O0) inlines nothing either way. */
/* A step that the compiler inlines into more than one caller on its own:
 * a speed build leaves that choice to it, a size build keeps one copy. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && \
	!defined(__OPTIMIZE_SIZE__)
#define IOMMU_SHARED_ inline __attribute__((always_inline))
#define IOMMU_OUTLINE_
#elif defined(__GNUC__) || defined(__clang__)
#define IOMMU_SHARED_  __attribute__((noinline))
#define IOMMU_OUTLINE_ __attribute__((noinline))
#else
#define IOMMU_SHARED_
#define IOMMU_OUTLINE_
#endif

#endif /* MMCHAL_IOMMU_HINTS_H */
