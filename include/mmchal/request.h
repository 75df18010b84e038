/**
 * @file
 * @brief Commands, data descriptions and requests as the MMC stack issues them.
 *
 * The caller owns every structure here for the whole life of a request; the
 * library writes only the result fields (@c resp, @c error, @c bytes_xfered).
 *
 * @note Plain data; no locking.
 */
#ifndef MMCHAL_REQUEST_H
#define MMCHAL_REQUEST_H

#include <mmchal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @name Response flags (combine into ::mmchal_cmd::flags)
 *  @{
 */
#define MMCHAL_RSP_PRESENT (1u << 0) /**< the card answers */
#define MMCHAL_RSP_136     (1u << 1) /**< 136-bit response (R2) */
#define MMCHAL_RSP_CRC     (1u << 2) /**< the response carries a valid CRC7 */
#define MMCHAL_RSP_BUSY    (1u << 3) /**< the card signals busy on DAT0 afterwards */
#define MMCHAL_RSP_OPCODE  (1u << 4) /**< the response echoes the command index */
/** @} */

/** @name Response types (SD Physical Layer spec 4.9, JEDEC eMMC 6.12)
 *  @{
 */
#define MMCHAL_RSP_NONE 0u /**< no response (CMD0) */
/** R1: normal response with card status */
#define MMCHAL_RSP_R1   (MMCHAL_RSP_PRESENT | MMCHAL_RSP_CRC | MMCHAL_RSP_OPCODE)
/** R1b: R1 followed by busy on DAT0 */
#define MMCHAL_RSP_R1B  (MMCHAL_RSP_R1 | MMCHAL_RSP_BUSY)
/** R2: CID or CSD, 136 bits */
#define MMCHAL_RSP_R2   (MMCHAL_RSP_PRESENT | MMCHAL_RSP_136 | MMCHAL_RSP_CRC)
/** R3: OCR; index and CRC fields are all ones and not checked */
#define MMCHAL_RSP_R3   (MMCHAL_RSP_PRESENT)
/** R4: SDIO IO_SEND_OP_COND; not CRC-checked */
#define MMCHAL_RSP_R4   (MMCHAL_RSP_PRESENT)
/** R5: SDIO IO_RW_DIRECT / EXTENDED */
#define MMCHAL_RSP_R5   (MMCHAL_RSP_R1)
/** R6: published RCA (SD CMD3) */
#define MMCHAL_RSP_R6   (MMCHAL_RSP_R1)
/** R7: card interface condition (SD CMD8) */
#define MMCHAL_RSP_R7   (MMCHAL_RSP_R1)
/** @} */

/** @brief One command on the CMD line. */
struct mmchal_cmd {
	uint32_t opcode;          /**< command index, 0..63 */
	uint32_t arg;             /**< 32-bit argument */
	uint32_t flags;           /**< MMCHAL_RSP_* */
	uint32_t busy_timeout_ms; /**< longest busy after an R1b response, ms; 0 = host default */
	uint32_t resp[4];         /**< response: short responses in resp[0]; R2 bits 127:96 in
				       resp[0] down to 31:0 (CRC byte rebuilt as 0) in resp[3] */
	int error;                /**< 0 or a negative ::mmchal_err, set on completion */
};

/** @brief The data phase of a request. */
struct mmchal_data {
	enum mmchal_dir dir;        /**< transfer direction */
	uint32_t blksz;             /**< block size, bytes, 1..max_blk_size */
	uint32_t blocks;            /**< block count, 1..max_blk_count */
	const struct mmchal_sg *sg; /**< caller buffers; their lengths add up to blksz * blocks */
	uint32_t sg_len;            /**< entries in @c sg */
	uint32_t timeout_ns;        /**< data timeout, ns; 0 = host default */
	uint32_t bytes_xfered;      /**< bytes moved, set on completion */
	int error;                  /**< 0 or a negative ::mmchal_err, set on completion */
};

struct mmchal_request;

/** @brief Completion callback of a request, called exactly once. */
typedef void (*mmchal_request_done_fn)(struct mmchal_request *req);

/** @brief A request: optional CMD23, the command, optional data and CMD12. */
struct mmchal_request {
	struct mmchal_cmd *sbc;   /**< SET_BLOCK_COUNT before the command; may be NULL */
	struct mmchal_cmd *cmd;   /**< the command; required */
	struct mmchal_data *data; /**< data phase; NULL for a command without data */
	struct mmchal_cmd *stop;  /**< STOP_TRANSMISSION after open-ended transfers; may be NULL */
	mmchal_request_done_fn done; /**< completion callback; NULL for synchronous use */
	void *priv;                  /**< caller's pointer, untouched by the library */
};

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_REQUEST_H */
