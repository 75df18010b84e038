/*
 * Private to the card fuzz target: the state one run shares between the
 * checks and driver (fuzz/fuzz_card.c) and the card model that answers the
 * card layer's requests from the input (fuzz/fuzz_card_model.c).
 */
#ifndef MMCHAL_FUZZ_CARD_PRIV_H
#define MMCHAL_FUZZ_CARD_PRIV_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmchal/card.h>
#include <mmchal/host.h>

#include "fuzz_card.h"

#define SD_RCA  0x4d2u
#define F0_SIZE 0x1100u

enum persona { P_SDHC, P_SDSC, P_MMC, P_SDIO, P_SDV1, P_MMC_BYTE, P_NONE, P_COUNT };

struct callbuf {
	uint8_t *arena; /* [G][e0][G][e1]...[G] */
	size_t arena_len;
	struct mmchal_sg *sg; /* exactly nsg entries */
	uint32_t nsg;
	uint64_t total;
	uint8_t *snap;    /* the data bytes before the call, in list order */
	uint8_t *written; /* per data byte: the host wrote it */
};

struct io {
	bool write;
	bool erase;
	uint64_t lba;
	uint32_t blocks;
	struct callbuf *cb; /* NULL for calls without buffers */
	uint64_t next_lba;  /* where the next block request must start */
};

struct fc {
	const uint8_t *hdr; /* HDR_SIZE bytes */
	const uint8_t *in;  /* answer stream */
	size_t in_n;
	uint64_t calls;
	uint64_t now_us;
	jmp_buf out;
	int fail;

	enum persona persona;
	uint8_t noops;
	struct mmchal_host_caps caps;
	uint32_t eff_bus; /* caps.bus less bus_disable */
	int caps_err;
	int limits_err;
	bool lim_sane;
	struct mmchal_limits lim;
	struct mmchal_host_ops ops;
	struct mmchal_card_cfg cfg;
	struct mmchal_card card;
	uint8_t *regarena; /* [G][512][G] */
	struct mmchal_sg *scratch;

	/* the nice card */
	bool app;
	uint8_t ext_csd[512];
	uint8_t f0[F0_SIZE];
	uint32_t last_written;

	/* per call */
	uint32_t host_errs; /* bit -e: the host returned e */
	uint32_t requests;
	bool cd_absent; /* get_cd said absent (or ENOMEDIUM) in this call */
	struct io *io;

	/* since the last init */
	bool removed_seen;   /* get_cd or a request said the card is gone */
	bool removal_unsure; /* another op said ENOMEDIUM */
	bool init_card_called;
	enum mmchal_card_type init_type;
	bool tuned;
	bool ro_seen;
	bool cmd16_ok;
	bool ios_ok; /* the last set_ios succeeded */
	struct mmchal_ios ios;

	struct fuzz_card_result res;
};

/* READ_SINGLE/MULTIPLE_BLOCK, WRITE_BLOCK, WRITE_MULTIPLE_BLOCK */
static inline bool is_block_op(uint32_t op)
{
	return op == 17u || op == 18u || op == 24u || op == 25u;
}

/* fuzz_card_model.c: the answer stream */

/* The next answer byte into @v; false (and 0) once the stream has run out. */
bool fc_ans_(struct fc *f, uint8_t *v);
/* @n answer bytes as a little-endian value (0 past the end). */
uint32_t fc_ans_u_(struct fc *f, unsigned n);
/* The error a host or card failure byte @b stands for. */
int fc_pick_err_(uint8_t b);

/* fuzz_card_model.c: the good card of the persona */

/* The nice card's EXT_CSD and SDIO function 0 space as they are at power-up. */
void fc_nice_init_regs_(struct fc *f);
/* Answer @req as control byte @c says (0 = as a good card); @buf holds the request's data bytes. */
void fc_answer_(struct fc *f, struct mmchal_request *req, uint8_t c, uint8_t *buf);

/* fuzz_card.c */

/* Where @s lies in the caller's list, as an offset of its data; -1 if not inside one entry. */
int64_t fc_caller_pos_(const struct callbuf *cb, const struct mmchal_sg *s);

#endif /* MMCHAL_FUZZ_CARD_PRIV_H */
