/*
 * Test helpers: the shared device trees (read from $MMCHAL_SHARED_DIR at run
 * time, never copied) and the rows of their expected.csv.
 */
#ifndef MMCHAL_TEST_DT_SHARED_H
#define MMCHAL_TEST_DT_SHARED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DT_MAX_ROWS 64

struct dt_row {
	char board[64];
	char node[96];
	char status[16];
	char backend[16];
	unsigned int bus_shift;
	bool iommu;
	unsigned int max_segs_sd_mmc;
	unsigned int max_segs_sdio;
};

/* The board names of the shared trees, in expected.csv order. */
extern const char *const dt_boards[];
extern const size_t dt_nboards;

/* Path of a file under $MMCHAL_SHARED_DIR/data/dt (default: the build's ../shared). */
void dt_path(const char *name, char *out, size_t size);

/* Read $MMCHAL_SHARED_DIR/data/dt/<board>.dtb into a malloc'd buffer. */
unsigned char *dt_load(const char *board, size_t *size);

/* Parse expected.csv; returns the number of rows (fails the test on a bad file). */
size_t dt_expected(struct dt_row *rows, size_t max);

/* 32-bit big-endian read and write in a blob. */
uint32_t dt_be32(const unsigned char *p);
void dt_put_be32(unsigned char *p, uint32_t v);

#endif
