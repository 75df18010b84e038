/**
 * @file
 * @brief The one error space of mmchal and its text rendering.
 *
 * Every function of the library that can fail returns @c int: 0 (or a
 * non-negative count where documented) on success, a negative
 * ::mmchal_err value on failure. Platform and libfdt errors are translated at
 * the boundary where they enter the library.
 *
 * @note Any context; no locks.
 */
#ifndef MMCHAL_ERROR_H
#define MMCHAL_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Error codes. All are negative; 0 is success. */
enum mmchal_err {
	MMCHAL_OK = 0,       /**< success */
	MMCHAL_EINVAL = -1,  /**< an argument or a combination of arguments is invalid */
	MMCHAL_ENOTSUP = -2, /**< the operation is not supported (optional op missing) */
	MMCHAL_ENOMEM = -3,  /**< a caller-provided pool (nodes, slots, IOVA space) is exhausted */
	MMCHAL_ETIMEDOUT = -4,  /**< the card or the controller did not answer in time */
	MMCHAL_EIO = -5,        /**< a data or command CRC / end-bit error on the bus */
	MMCHAL_EBUSY = -6,      /**< the host or the card is busy with another request */
	MMCHAL_ENOMEDIUM = -7,  /**< no card is present, or it was removed */
	MMCHAL_EFAULT = -8,     /**< a DMA engine or IOMMU reported a fault on a bus access */
	MMCHAL_ERANGE = -9,     /**< a value does not fit the destination or the device limits */
	MMCHAL_ENOENT = -10,    /**< the object looked for does not exist */
	MMCHAL_EALREADY = -11,  /**< the operation was already done (double free, double unmap) */
	MMCHAL_EILSEQ = -12,    /**< the card answered with an illegal command / protocol error */
	MMCHAL_ECANCELED = -13, /**< the request was aborted before it completed */
	MMCHAL_EPROTO = -14,    /**< malformed input data (device tree, descriptor, response) */
	MMCHAL_ENOSPC = -15,    /**< the caller's output buffer is too small */
	MMCHAL_EROFS = -16,     /**< the card is write-protected: writes and erases refused */
};

/**
 * @brief Render an error code as a short, constant English text.
 *
 * @param[in] err  a value returned by any mmchal function (0 or a ::mmchal_err)
 * @return a static, NUL-terminated string; never NULL. Unknown values give
 *         "unknown error".
 * @note Any context; no locks.
 */
const char *mmchal_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* MMCHAL_ERROR_H */
