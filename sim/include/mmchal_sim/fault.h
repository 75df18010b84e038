/**
 * @file
 * @brief The fault schedule: deterministic errors injected at a chosen
 *        command, data block or virtual time, or at random with a seed.
 *
 * Each scheduled fault fires once. What the controller reports for each kind
 * (status bits, detail registers, card state) is listed in docs/sim.md.
 *
 * @note Host only. Not thread-safe.
 */
#ifndef MMCHAL_SIM_FAULT_H
#define MMCHAL_SIM_FAULT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mmchal_sim;

/** @brief What goes wrong. */
enum mmchal_sim_fault_kind {
	MMCHAL_SIM_FAULT_CMD_TIMEOUT = 0, /**< the card does not see the command: no response */
	MMCHAL_SIM_FAULT_CMD_CRC,         /**< the response arrives with a bad CRC7 */
	MMCHAL_SIM_FAULT_DATA_CRC,        /**< a read block has a bad CRC16 / a write gets a
					       negative CRC status */
	MMCHAL_SIM_FAULT_DATA_TIMEOUT,    /**< the card never sends the block */
	MMCHAL_SIM_FAULT_END_BIT,         /**< a read block ends with a bad end bit */
	MMCHAL_SIM_FAULT_DMA_ERROR,       /**< the active DMA engine reports an error */
	MMCHAL_SIM_FAULT_IOMMU,           /**< the next IOMMU translation faults */
	MMCHAL_SIM_FAULT_CARD_REMOVE,     /**< the card is pulled out */
	MMCHAL_SIM_FAULT_STUCK_BUSY,      /**< the card holds DAT0 low until removed or CMD0 */
	MMCHAL_SIM_FAULT_KIND_COUNT       /**< number of kinds */
};

/** @brief When a fault fires. */
enum mmchal_sim_fault_trigger {
	/** on the @c count-th command (0 = the next) whose index matches @c opcode,
	    before the card sees it; data kinds hit block 0 of that command */
	MMCHAL_SIM_AT_CMD = 0,
	/** at data block @c count (0-based) of the next data command matching @c opcode */
	MMCHAL_SIM_AT_BLOCK,
	/** at virtual time @c t_ns: removal, stuck busy and DMA errors happen at
	    that instant; other kinds hit the next command or block after it */
	MMCHAL_SIM_AT_TIME,
};

/** @brief Command-index wildcard for ::mmchal_sim_fault::opcode. */
#define MMCHAL_SIM_ANY_OPCODE 0xffu

/** @brief One scheduled fault. */
struct mmchal_sim_fault {
	enum mmchal_sim_fault_kind kind;       /**< what */
	enum mmchal_sim_fault_trigger trigger; /**< when */
	uint8_t opcode; /**< command index 0..63 or ::MMCHAL_SIM_ANY_OPCODE */
	uint32_t count; /**< command ordinal or block index (see trigger) */
	uint64_t t_ns;  /**< virtual time for ::MMCHAL_SIM_AT_TIME */
};

/** @brief Most faults scheduled at once. */
#define MMCHAL_SIM_MAX_FAULTS 16u

/**
 * @brief Schedule a fault.
 * @param[in] sim  simulator
 * @param[in] f    fault (copied)
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL argument, unknown kind or trigger, or opcode > 63
 *                         and not ::MMCHAL_SIM_ANY_OPCODE
 * @retval MMCHAL_ENOSPC   ::MMCHAL_SIM_MAX_FAULTS faults are already pending
 */
int mmchal_sim_fault_add(struct mmchal_sim *sim, const struct mmchal_sim_fault *f);

/**
 * @brief Inject faults at random: every command and every data block draws
 *        one number from a splitmix64 stream seeded with @p seed and fails
 *        with probability @p per_million / 10^6, with a kind drawn from
 *        @p kinds (bit n = ::mmchal_sim_fault_kind n). The same seed and the
 *        same driver give the same faults.
 * @param[in] sim          simulator
 * @param[in] seed         stream seed
 * @param[in] per_million  rate; 0 turns random faults off
 * @param[in] kinds        mask of kinds to draw from
 * @retval 0               success
 * @retval MMCHAL_EINVAL   NULL @p sim, rate above 10^6, or an empty/unknown @p kinds
 *                         with a non-zero rate
 */
int mmchal_sim_fault_random(struct mmchal_sim *sim, uint64_t seed, uint32_t per_million,
			    uint32_t kinds);

/**
 * @brief Drop every pending fault and stop random faults.
 * @param[in] sim  simulator
 */
void mmchal_sim_fault_clear(struct mmchal_sim *sim);

/**
 * @brief Number of faults that fired, per kind or in total.
 * @param[in] sim   simulator
 * @param[in] kind  a kind, or ::MMCHAL_SIM_FAULT_KIND_COUNT for the total
 * @return the count
 */
uint32_t mmchal_sim_faults_fired(const struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_SIM_FAULT_H */
