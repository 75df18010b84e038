/**
 * @file
 * @brief Error code texts.
 *
 * Locking: none; any context.
 */
#include <mmchal/error.h>

#include "core/strbuf.h"

/*
 * The texts indexed by -err, each ended by its NUL, and "unknown error" after
 * the last code: one array rather than a table of pointers to them.
 */
static const char texts[] = "success\0"                              /* MMCHAL_OK */
			    "invalid argument\0"                     /* MMCHAL_EINVAL */
			    "operation not supported\0"              /* MMCHAL_ENOTSUP */
			    "pool exhausted\0"                       /* MMCHAL_ENOMEM */
			    "timed out\0"                            /* MMCHAL_ETIMEDOUT */
			    "I/O error (CRC or end bit)\0"           /* MMCHAL_EIO */
			    "busy\0"                                 /* MMCHAL_EBUSY */
			    "no card\0"                              /* MMCHAL_ENOMEDIUM */
			    "DMA or IOMMU fault\0"                   /* MMCHAL_EFAULT */
			    "value out of range\0"                   /* MMCHAL_ERANGE */
			    "not found\0"                            /* MMCHAL_ENOENT */
			    "already done\0"                         /* MMCHAL_EALREADY */
			    "illegal command or protocol sequence\0" /* MMCHAL_EILSEQ */
			    "aborted\0"                              /* MMCHAL_ECANCELED */
			    "malformed data\0"                       /* MMCHAL_EPROTO */
			    "buffer too small\0"                     /* MMCHAL_ENOSPC */
			    "card is write-protected\0"              /* MMCHAL_EROFS */
			    "unknown error";

/* Codes with a text: 0 down to MMCHAL_EROFS; "unknown error" follows them. */
#define NCODES (1u - (unsigned int)MMCHAL_EROFS)

const char *mmchal_strerror(int err)
{
	/* -err without overflow; a positive code wraps to a large value */
	unsigned int n = 0u - (unsigned int)err;

	return mmchal_text_nth_(texts, n < NCODES ? n : NCODES);
}
