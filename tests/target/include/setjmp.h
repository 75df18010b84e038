/*
 * <setjmp.h> for the on-target runner. GCC's __builtin_setjmp/__builtin_longjmp
 * save and restore only what the compiler needs (frame, stack and resume
 * address) and exist for every target, so no per-architecture assembly is
 * needed. Restrictions that follow: longjmp always makes setjmp return 1, and
 * it must come from a function called (directly or not) by the one that
 * called setjmp, while that one is still active.
 */
#ifndef MMCHAL_TARGET_SETJMP_H
#define MMCHAL_TARGET_SETJMP_H

/* GCC documents the buffer as five words. */
typedef void *jmp_buf[5];

#define setjmp(env)       __builtin_setjmp(env)
#define longjmp(env, val) __builtin_longjmp(env, 1)

#endif /* MMCHAL_TARGET_SETJMP_H */
