/*
 * Shared by the footprint images (tools/footprint.sh): inputs the compiler
 * cannot see through, so that every call below stays in the image, and the
 * entry point the linker keeps.
 *
 * FP_HAVE_* are set by tools/footprint.sh for the components that exist in
 * the tree; a configuration calls only those, and the script reports the
 * others as "not built yet".
 */
#ifndef MMCHAL_FOOTPRINT_FP_H
#define MMCHAL_FOOTPRINT_FP_H

#include <stddef.h>
#include <stdint.h>

#include <mmchal/mmchal.h>

/* Read and written through volatile: never constant-folded. */
extern volatile uintptr_t fp_in;
extern volatile intptr_t fp_out;

#define FP_PTR(type) ((type)(void *)fp_in)
#define FP_U32()     ((uint32_t)fp_in)

/* Each configuration's main: what a firmware of that kind calls. */
int fp_main(void);

/* The port and bus every configuration needs. */
void fp_port(void);

#endif /* MMCHAL_FOOTPRINT_FP_H */
