/*
 * Properties every successful limits derivation must have, and a generator
 * of capability sets (mostly valid, sometimes broken) driven by any source
 * of random words. Shared by the randomised test and the fuzz target.
 */
#ifndef MMCHAL_TESTS_LIMITS_PROPS_H
#define MMCHAL_TESTS_LIMITS_PROPS_H

#include <stdint.h>

#include <mmchal/limits.h>

/** One generated derivation input. */
struct limits_case {
	struct mmchal_caps caps;
	struct mmchal_port_caps port;
	struct mmchal_policy_cfg cfg;
	enum mmchal_card_type card;
};

/** A source of random words; the generator calls it for every choice. */
typedef uint64_t (*limits_rnd_fn)(void *ctx);

/** Fill @p c from @p rnd: values real hosts use, plus rare invalid ones. */
void limits_gen(limits_rnd_fn rnd, void *ctx, struct limits_case *c);

/**
 * Derive limits for @p c and check every property. Returns 0 when all hold,
 * else the number of the first property that failed (see limits_props.c).
 */
int limits_check(const struct limits_case *c);

#endif /* MMCHAL_TESTS_LIMITS_PROPS_H */
