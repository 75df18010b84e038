/*
 * What the runner needs from a target's startup code (tests/target/<arch>/):
 * a character sink and a way to end the emulator with an exit status.
 */
#ifndef MMCHAL_TARGET_PLATFORM_H
#define MMCHAL_TARGET_PLATFORM_H

#include <stdarg.h>

/* Queue one character for the console; mmt_flush() pushes out what is queued. */
void mmt_putc(char c);
void mmt_flush(void);

/* Ends the program with an exit status, 0..255; 0 is a pass. */
_Noreturn void mmt_exit(int code);

/* printf subset: %% %c %s %p and d i u x X with flags 0 -, width, hh h l ll z j t. */
int mmt_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int mmt_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Exit status of a crash (fault or trap), distinct from any failure count a test reports. */
#define MMT_EXIT_CRASH 254

/*
 * Exit status for main's return value (the failure count): clamped to 1..253
 * so that 256 failures can not read as success through an 8-bit process
 * status, nor as a crash.
 */
int mmt_clamp_exit_(int code);

/* The test program's entry point, called by the startup code. */
int main(void);

#endif /* MMCHAL_TARGET_PLATFORM_H */
