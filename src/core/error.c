/**
 * @file
 * @brief Error code texts.
 *
 * Locking: none; any context.
 */
#include <mmchal/error.h>

const char *mmchal_strerror(int err)
{
	switch (err) {
	case MMCHAL_OK:
		return "success";
	case MMCHAL_EINVAL:
		return "invalid argument";
	case MMCHAL_ENOTSUP:
		return "operation not supported";
	case MMCHAL_ENOMEM:
		return "pool exhausted";
	case MMCHAL_ETIMEDOUT:
		return "timed out";
	case MMCHAL_EIO:
		return "I/O error (CRC or end bit)";
	case MMCHAL_EBUSY:
		return "busy";
	case MMCHAL_ENOMEDIUM:
		return "no card";
	case MMCHAL_EFAULT:
		return "DMA or IOMMU fault";
	case MMCHAL_ERANGE:
		return "value out of range";
	case MMCHAL_ENOENT:
		return "not found";
	case MMCHAL_EALREADY:
		return "already done";
	case MMCHAL_EILSEQ:
		return "illegal command or protocol sequence";
	case MMCHAL_ECANCELED:
		return "aborted";
	case MMCHAL_EPROTO:
		return "malformed data";
	case MMCHAL_ENOSPC:
		return "buffer too small";
	case MMCHAL_EROFS:
		return "card is write-protected";
	default:
		return "unknown error";
	}
}
