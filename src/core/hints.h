/**
 * @file
 * @brief Internal: compiler hints of the core. GCC and clang get them; any
 *        other C11 compiler gets correct code without them.
 */
#ifndef MMCHAL_CORE_HINTS_H
#define MMCHAL_CORE_HINTS_H

/* The request path's small steps: inlined into the entry that runs them, so
 * a request pays no call per step. A build optimised for size (-Os, -Oz:
 * __OPTIMIZE_SIZE__) leaves the choice to the compiler instead: forced into
 * every entry (request, irq, poll, request_sync) the steps are copied four
 * times, which a firmware image pays for in flash (docs/footprint.md). An
 * unoptimised build (-O0: no __OPTIMIZE__) does not inline either, so that
 * a debugger steps through each step once and coverage counts each branch
 * once, not once per entry it was copied into. */
/* Rare paths: kept out of line, so that the common one stays short. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__) && \
	!defined(__OPTIMIZE_SIZE__)
#define CORE_INLINE_   inline __attribute__((always_inline))
#define CORE_NOINLINE_ __attribute__((noinline))
#elif defined(__GNUC__) || defined(__clang__)
#define CORE_INLINE_   inline
#define CORE_NOINLINE_ __attribute__((noinline))
#else
#define CORE_INLINE_ inline
#define CORE_NOINLINE_
#endif

#endif /* MMCHAL_CORE_HINTS_H */
