#!/usr/bin/env python3
"""Write the seed inputs of fuzz/fuzz_card.c into tests/fuzz/card/.

An input is a fixed header (the host, the card configuration, the card's
"persona" and a script of block calls; layout in fuzz/fuzz_card.c, enum H_*)
followed by the answer stream, one control byte per host op call. A 0 there is
the answer a good card of the persona gives, so a seed is a header and
enough zeros for every call of a clean run; the fuzzer mutates from there.

Files named seed-<type>-* must reach a successful mmchal_card_init() of that
type (sdhc, sdsc, emmc, sdio); tests/fuzz/test_fuzz_card.c asserts it.

  tools/fuzz_card_seeds.py [outdir]      (default: tests/fuzz/card)
"""
import os
import sys

NOPS, OP_SIZE, H_OPS = 5, 6, 24
PERSONA = {"sdhc": 0, "sdsc": 1, "emmc": 2, "sdio": 3, "sdv1": 4, "emmc_byte": 5, "none": 6}

# MMCHAL_BUS_* (include/mmchal/caps.h)
B4, B8, SD_HS, MMC_HS = 1 << 0, 1 << 1, 1 << 2, 1 << 3
DDR52, HS200, HS400, CMD23 = 1 << 9, 1 << 10, 1 << 11, 1 << 12
HW_BUSY, NONREM, V18 = 1 << 14, 1 << 15, 1 << 17

# block calls: kind, lba mode, lba (2 bytes), blocks - 1, layout seed
READ, WRITE, ERASE, DISCARD, PAST_END, BAD_ARGS, PRESENT, REINIT = range(8)
DEFAULT_OPS = [(READ, 2, 0, 7, 3), (WRITE, 0, 100, 4, 9), (ERASE, 4 + 0, 64, 5, 0),
               (DISCARD, 1, 0, 2, 0), (READ, 1, 0, 20, 200)]


def header(persona, bus, fmax=6, noops=0, limmode=0, segs=15, segsz=3, blkcnt=63,
           reqsz=0xff, segb=0, virtb=0, blksz=0, cfg=1, busytries=0, cmdto=0, rca=0,
           busdis=0, finit=0, scratch=6, ops=DEFAULT_OPS):
    h = bytearray(H_OPS + NOPS * OP_SIZE)
    h[0] = PERSONA[persona]
    h[1:4] = bus.to_bytes(3, "little")
    h[4], h[5], h[6] = fmax, noops, limmode
    h[7], h[8], h[9], h[10] = segs, segsz, blkcnt, reqsz
    h[11], h[12], h[13], h[14] = segb, virtb, blksz, cfg
    h[15], h[16] = busytries, cmdto
    h[17:19] = rca.to_bytes(2, "little")
    h[19:21] = busdis.to_bytes(2, "little")
    h[21], h[22] = finit, scratch
    for i, (kind, mode, lba, blocks, seed) in enumerate(ops):
        o = H_OPS + i * OP_SIZE
        h[o:o + OP_SIZE] = bytes([kind, mode, lba & 0xff, lba >> 8, blocks, seed])
    return bytes(h)


SEEDS = {
    # the four card types, each through init and the default block calls
    "seed-sdhc-hs": header("sdhc", B4 | SD_HS | CMD23),
    "seed-sdhc-1bit": header("sdhc", 0, fmax=2, limmode=3, segs=0, blkcnt=3, scratch=0),
    "seed-sdhc-bounds": header("sdhc", B4 | CMD23, segs=2, segsz=4, blkcnt=5, reqsz=7,
                               segb=0x80, virtb=0x80 | 3, scratch=3),
    "seed-sdsc": header("sdsc", B4 | SD_HS),
    "seed-sdsc-nolimits": header("sdsc", B4, noops=0x80 | 0x02, scratch=4),
    "seed-emmc-hs400": header("emmc", B4 | B8 | MMC_HS | DDR52 | HS200 | HS400 | CMD23 | V18),
    "seed-emmc-ddr52": header("emmc", B4 | MMC_HS | DDR52 | CMD23 | HW_BUSY | NONREM,
                              noops=0x04, rca=2),
    "seed-emmc-hs200": header("emmc", B4 | B8 | MMC_HS | HS200 | V18, busdis=HS400 & 0xffff,
                              segs=0, segsz=0, blkcnt=0),
    "seed-emmc-legacy": header("emmc", 0, fmax=0, noops=0x7f, cfg=0),
    "seed-sdio": header("sdio", B4 | SD_HS),
    "seed-sdio-1bit": header("sdio", 0, noops=0x02),
    # no init success expected: other personas
    "sdv1": header("sdv1", B4 | SD_HS),
    "emmc-byte": header("emmc_byte", B4 | B8 | MMC_HS),
    "nocard": header("none", B4),
    "reinit-present": header("sdhc", B4, ops=[(PRESENT, 0, 0, 0, 0), (REINIT, 0, 0, 0, 0),
                                              (BAD_ARGS, 2, 0, 1, 1), (PAST_END, 0, 1, 2, 0),
                                              (BAD_ARGS, 2, 0, 1, 3)]),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fuzz", "card")
    os.makedirs(out, exist_ok=True)
    for name, hdr in SEEDS.items():
        # enough good answers for every host op of a clean run
        with open(os.path.join(out, name), "wb") as fp:
            fp.write(hdr + bytes(3000))


if __name__ == "__main__":
    main()
