/*
 * Internal state of the simulator, shared by its source files only.
 * Names shared between files end in '_'.
 */
#ifndef MMCHAL_SIM_PRIV_H
#define MMCHAL_SIM_PRIV_H

#include <mmchal_sim/sim.h>

#include <stdlib.h>
#include <string.h>

/* SDHI logical register offsets (REFERENCE.md register map). */
#define SD_CMD         0x00u
#define SD_ARG         0x04u
#define SD_STOP        0x08u
#define SD_SECCNT      0x0au
#define SD_RSP0        0x0cu
#define SD_INFO1       0x1cu
#define SD_INFO2       0x1eu
#define SD_INFO1_MASK  0x20u
#define SD_INFO2_MASK  0x22u
#define SD_CLK_CTRL    0x24u
#define SD_SIZE        0x26u
#define SD_OPTION      0x28u
#define SD_ERR_STS1    0x2cu
#define SD_ERR_STS2    0x2eu
#define SD_BUF0        0x30u
#define SDIO_MODE      0x34u
#define SDIO_INFO1     0x36u
#define SDIO_INFO1_MSK 0x38u
#define CC_EXT_MODE    0xd8u
#define SOFT_RST       0xe0u
#define SD_VERSION     0xe2u
#define HOST_MODE      0xe4u
#define IF_MODE        0xe6u

/* Internal DMAC byte offsets (unshifted). */
#define DM_CM_DTRAN_MODE 0x820u
#define DM_CM_DTRAN_CTRL 0x828u
#define DM_CM_RST        0x830u
#define DM_CM_INFO1      0x840u
#define DM_CM_INFO1_MASK 0x848u
#define DM_CM_INFO2      0x850u
#define DM_CM_INFO2_MASK 0x858u
#define DM_DTRAN_ADDR    0x880u
#define DM_DTRAN_ADDR_H  0x888u /* upper half (U-Boot ADDR_H, Zephyr) */

/* Status bits, INFO1 in 15:0 and INFO2 in 31:16. */
#define ST_RSP_END    (1u << 0)
#define ST_ACCESS_END (1u << 2)
#define ST_REMOVED    (1u << 3)
#define ST_INSERTED   (1u << 4)
#define ST_CD         (1u << 5)
#define ST_WP         (1u << 7)
#define ST_CMD_IDX    (1u << 16)
#define ST_CRC        (1u << 17)
#define ST_END_BIT    (1u << 18)
#define ST_DATA_TO    (1u << 19)
#define ST_RX_OVER    (1u << 20)
#define ST_TX_UNDER   (1u << 21)
#define ST_CMD_TO     (1u << 22)
#define ST_DAT0       (1u << 23)
#define ST_BRE        (1u << 24)
#define ST_BWE        (1u << 25)
#define ST_ALWAYS1    (1u << 27)
#define ST_SCLKDIVEN  (1u << 29)
#define ST_CBSY       (1u << 30)
#define ST_ILL_ACCESS (1u << 31)

/* Latched (event) bits: these are cleared by writing 0 and may interrupt. */
#define ST_LATCHED                                                                          \
	(ST_RSP_END | ST_ACCESS_END | ST_REMOVED | ST_INSERTED | ST_CMD_IDX | ST_CRC |      \
	 ST_END_BIT | ST_DATA_TO | ST_RX_OVER | ST_TX_UNDER | ST_CMD_TO | ST_BRE | ST_BWE | \
	 ST_ILL_ACCESS)

/* Reset values of the masks: TMIO_MASK_ALL in Linux tmio_mmc.h. */
#define MASK_RESET 0x837f031du

/*
 * SDIO_INFO1 bit 0: the card interrupt (IOIRQ), with SDIO_MODE bit 0 enabling
 * its detection and SDIO_INFO1_MASK bit 0 = 0 unmasking it (Linux tmio_mmc.h
 * TMIO_SDIO_STAT_IOIRQ 0x0001, TMIO_SDIO_MASK_ALL 0xc007; REF).
 */
#define SDIO_ST_IOIRQ   0x0001u
#define SDIO_MODE_IOIRQ 0x0001u

enum sim_ev {
	EV_CMD = 0, /* response end or response timeout */
	EV_BLOCK,   /* a read block arrives / a write block leaves the buffer */
	EV_DATA_TO, /* data timeout window expired */
	EV_AUTO12,  /* auto CMD12 response */
	EV_BUSY,    /* DAT0 released */
	EV_FAULT,   /* an AT_TIME fault is due */
	EV_COUNT
};

#define T_NEVER UINT64_MAX

enum resp_kind {
	RESP_NONE = 0, /* the card stays silent */
	RESP_48,       /* R1, R1b, R5, R6, R7 with CRC */
	RESP_48_NOCRC, /* R3, R4 */
	RESP_136,      /* R2 */
};

enum card_data { CDATA_NONE = 0, CDATA_READ, CDATA_WRITE };

struct card_resp {
	enum resp_kind kind;
	uint32_t val;        /* 32-bit payload of a 48-bit response */
	uint8_t r2[16];      /* CID/CSD, bit 127 first, CRC7 in byte 15 */
	uint64_t busy_ns;    /* DAT0 busy after the response */
	enum card_data data; /* the card enters a data phase */
};

struct sim_card {
	struct mmchal_sim_card_config cfg;
	bool present;
	bool own_store;
	uint8_t *store;
	int state;
	uint16_t rca;
	uint32_t pending;   /* R1 error bits waiting to be reported */
	bool app;           /* CMD55 seen: the next command is an ACMD */
	bool cur_app;       /* the command being handled is an ACMD */
	uint32_t wr_blocks; /* blocks written by the last write command (ACMD22) */
	uint64_t powerup_start;
	bool hcs;
	bool s18a;   /* the last ACMD41 granted S18A: CMD11 may follow */
	bool v18;    /* signalling at 1.8 V (CMD11 done); kept until power-off (removal) */
	int vswitch; /* CMD11 voltage switch: 1 = DAT0 held low until the clock stops, 2 = stopped */
	bool timing_next_valid;         /* SD CMD6: the new mode applies after the status block */
	enum mmchal_timing timing_next; /* ... this one */
	uint8_t tran_speed_next;        /* ... with this CSD TRAN_SPEED */
	uint8_t cid[16], csd[16], scr[8];
	uint8_t ext_csd[512];
	uint8_t cccr[0x200]; /* SDIO CCCR (0x00..0xff) and FBR1 (0x100..0x1ff) */
	uint32_t width;
	enum mmchal_timing timing;
	uint32_t sbc;   /* CMD23 block count for the next CMD18/25; 0 = none */
	bool sbc_armed; /* CMD23 was the last command */
	/* data phase as the card sees it */
	uint64_t addr; /* byte address in the store */
	uint32_t left; /* blocks (or payload bytes) left; 0 = open-ended */
	bool counted;  /* @left limits the transfer */
	uint8_t payload[512];
	uint32_t payload_len;
	bool payload_mode; /* the read serves @payload, not the store */
	bool sdio_incr;    /* CMD53 op code: incrementing address */
	uint8_t sdio_fn;
	uint64_t media_done;  /* programming of received blocks ends here */
	int erase_step;       /* 0: none, 1: start given (CMD32/35), 2: end given (CMD33/36) */
	uint64_t erase_start; /* byte address of the first block of the range */
	uint64_t erase_end;   /* byte address of the last block of the range */
	bool stuck;           /* DAT0 held low (fault) */
	bool busy;            /* DAT0 low until EV_BUSY */
	bool sdio_irq;        /* SDIO: function 1's interrupt source is active */
};

struct sim_xfer {
	bool active;
	bool read;
	bool multi;
	bool auto12;
	bool open; /* open-ended: until SD_STOP bit 0 */
	bool stop_req;
	bool failed; /* an error stopped the phase */
	uint8_t opcode;
	uint32_t blksz;
	uint32_t nblocks;
	uint32_t next;     /* next block index on the bus */
	uint64_t t0;       /* data phase start (response end) */
	uint64_t bus_free; /* the bus is free from here */
	uint8_t buf[512];
	uint32_t buf_pos;
	enum { BUF_EMPTY = 0, BUF_BUSY, BUF_FULL } bstate; /* BUF_BUSY: on the bus */
	struct {
		enum mmchal_sim_fault_kind kind;
		uint32_t block;
		bool used;
	} faults[MMCHAL_SIM_MAX_FAULTS];
	uint32_t nfaults;
	int ev_kind; /* what EV_BLOCK means for the pending block: fault or normal */
};

struct sim_cmdres {
	bool timeout;
	bool crc;
	bool end_bit;
	bool index;
	enum resp_kind kind;
	uint16_t rsp[8];
	bool has_data;
	bool r1b; /* SD_CMD response type R1b: hardware busy detection */
	enum card_data card_data;
};

struct sim_idmac {
	uint64_t mode, rst, info1, info1_mask, info2, info2_mask, addr;
	bool running;
	bool read;
	uint64_t cur;
};

struct sim_chan {
	struct mmchal_sim *sim;
	enum mmchal_dir dir;
	enum { CH_IDLE = 0, CH_PREPARED, CH_RUNNING } state;
	struct mmchal_dma_seg *segs;
	uint32_t seg;
	uint32_t seg_off;
	uint64_t total;
	uint64_t moved;
	uint8_t width;
	mmchal_dma_done_fn done;
	void *done_arg;
};

struct sim_iommu {
	struct mmchal_sim_iommu_config cfg;
	uint64_t *keys; /* vpn + 1; 0 = empty slot */
	uint64_t *vals; /* ppn << 2 | prot */
	uint64_t cap;
	uint64_t count;
	struct {
		bool valid;
		uint64_t vpn;
		uint64_t val;
	} * tlb;
	uint32_t tlb_next;
	bool inject;
	struct mmchal_sim_iommu_stats st;
};

struct sim_region {
	uint64_t base, size, used;
	uint8_t *host;
	bool own;
};

struct sim_fault {
	struct mmchal_sim_fault f;
	bool active;
	uint32_t seen;
};

struct sim_done {
	mmchal_dma_done_fn fn;
	void *arg;
	int status;
};

struct sim_work {
	mmchal_work_fn fn;
	void *arg;
};

#define SIM_MAX_DONE 8u
#define SIM_MAX_WORK 64u

struct mmchal_sim {
	struct mmchal_sim_config cfg;
	uint64_t now;
	uint64_t ev[EV_COUNT];
	/* SDHI registers */
	uint16_t cmd, stop, size, clk_ctrl, option, host_mode, if_mode, ext_mode, soft_rst;
	uint16_t sdio_mode, sdio_info1, sdio_info1_mask;
	uint32_t arg, seccnt;
	uint32_t info, mask;
	uint16_t err1, err2;
	uint16_t rsp[8];
	bool cmd_busy;
	bool cmd_pending; /* written while the clock was off */
	bool rsp_wait;    /* R1b: response end held until the card releases DAT0 */
	bool idle_wait;   /* access end came while DAT0 was busy: raise it again at busy end */
	struct sim_cmdres res;
	struct sim_xfer x;
	struct sim_card card;
	struct sim_idmac dm;
	struct sim_chan chan[MMCHAL_DIR_COUNT];
	struct sim_iommu *iommu;
	struct sim_region mem[MMCHAL_SIM_MEM_REGIONS];
	uint32_t nmem;
	struct sim_fault faults[MMCHAL_SIM_MAX_FAULTS];
	uint64_t rnd_state;
	uint32_t rnd_ppm, rnd_kinds;
	uint32_t fired[MMCHAL_SIM_FAULT_KIND_COUNT];
	bool pending_data[MMCHAL_SIM_FAULT_KIND_COUNT]; /* armed at the command, for block 0 */
	/* interrupt and callbacks */
	bool line;
	uint64_t line_rise;
	mmchal_sim_irq_fn irq_fn;
	void *irq_arg;
	uint32_t lock_depth;
	bool in_cb;
	struct sim_done done[SIM_MAX_DONE];
	uint32_t ndone;
	struct sim_work work[SIM_MAX_WORK];
	uint32_t nwork;
	/* counting and tracing */
	uint64_t *rd_count, *wr_count;
	struct mmchal_sim_counters cnt;
	struct mmchal_sim_access *ring;
	uint32_t ring_head, ring_len;
	mmchal_sim_trace_fn trace_fn;
	void *trace_arg;
	bool verbose;
};

/* core.c */
void sim_advance_to_(struct mmchal_sim *sim, uint64_t t);
void sim_schedule_(struct mmchal_sim *sim, enum sim_ev ev, uint64_t t);
void sim_update_line_(struct mmchal_sim *sim);
void sim_deliver_(struct mmchal_sim *sim);
void sim_queue_done_(struct mmchal_sim *sim, mmchal_dma_done_fn fn, void *arg, int status);
uint64_t sim_splitmix_(uint64_t *state);

/* sdhi.c */
void sdhi_reset_(struct mmchal_sim *sim);
uint16_t sdhi_read_(struct mmchal_sim *sim, uint32_t reg);
void sdhi_write_(struct mmchal_sim *sim, uint32_t reg, uint16_t val);
uint32_t sdhi_port_width_(const struct mmchal_sim *sim);
uint32_t sdhi_seccnt_read_(const struct mmchal_sim *sim, uint32_t width);
void sdhi_seccnt_write_(struct mmchal_sim *sim, uint32_t width, uint32_t val);
uint64_t sdhi_port_read_(struct mmchal_sim *sim, uint32_t width);
void sdhi_port_write_(struct mmchal_sim *sim, uint32_t width, uint64_t val);
void sdhi_event_(struct mmchal_sim *sim, enum sim_ev ev);
uint32_t sdhi_status_(const struct mmchal_sim *sim);
void sdhi_set_status_(struct mmchal_sim *sim, uint32_t bits);
void sdhi_card_changed_(struct mmchal_sim *sim, bool inserted);
uint64_t sdhi_clk_ns_(const struct mmchal_sim *sim, uint64_t clocks);
bool sdhi_dma_enabled_(const struct mmchal_sim *sim);
uint32_t sdhi_bus_width_(const struct mmchal_sim *sim);
uint64_t sdhi_data_timeout_ns_(const struct mmchal_sim *sim);
uint64_t sdhi_clock_hz_(const struct mmchal_sim *sim);
void sdhi_auto12_(struct mmchal_sim *sim);
void sdhi_access_end_(struct mmchal_sim *sim);
void sdhi_sdio_update_(struct mmchal_sim *sim);

/* data.c: the data phase */
void data_start_(struct mmchal_sim *sim);
void data_block_event_(struct mmchal_sim *sim);
void data_timeout_event_(struct mmchal_sim *sim);
void data_pump_(struct mmchal_sim *sim);
void data_abort_(struct mmchal_sim *sim);
void data_stop_req_(struct mmchal_sim *sim);
void data_buffer_drained_(struct mmchal_sim *sim);
void data_buffer_filled_(struct mmchal_sim *sim);
uint64_t data_block_ns_(const struct mmchal_sim *sim, bool read);
bool data_take_fault_(struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind, uint32_t block);

/* idmac.c */
void idmac_reset_(struct mmchal_sim *sim);
uint64_t idmac_read_(struct mmchal_sim *sim, uint32_t off);
void idmac_write_(struct mmchal_sim *sim, uint32_t off, uint64_t val, uint32_t width);
bool idmac_present_(const struct mmchal_sim *sim);
bool idmac_move_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len, bool read, uint32_t block);
uint32_t idmac_status_(const struct mmchal_sim *sim);
void idmac_data_end_(struct mmchal_sim *sim);

/* sysdmac.c */
bool sysdmac_move_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len, bool read, uint32_t block);
void sysdmac_free_(struct mmchal_sim *sim);

/* dma memory access (mem.c) through the IOMMU (iommu.c) */
int dma_access_(struct mmchal_sim *sim, uint64_t addr, uint8_t *buf, uint32_t len, bool dev_write);
int iommu_translate_(struct mmchal_sim *sim, uint64_t iova, bool write, uint64_t *phys);
void iommu_free_(struct mmchal_sim *sim);
void mem_free_(struct mmchal_sim *sim);

/* card.c */
void card_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r);
int card_read_block_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len);
int card_write_block_(struct mmchal_sim *sim, const uint8_t *buf, uint32_t len, uint64_t t_end,
		      bool *done);
void card_busy_end_(struct mmchal_sim *sim);
bool card_dat0_busy_(const struct mmchal_sim *sim);
uint64_t card_clock_max_(const struct mmchal_sim *sim);
bool card_ddr_(const struct mmchal_sim *sim);
void card_free_(struct mmchal_sim *sim);
void card_crc7_fill_(uint8_t reg[16]);
uint32_t card_r1_(struct mmchal_sim *sim, int state_at_cmd);
void card_set_bits_(uint8_t *reg, unsigned bytes, unsigned hi, unsigned lo, uint64_t val);
void card_illegal_(struct sim_card *c, struct card_resp *r);
void card_r1_resp_(struct mmchal_sim *sim, int st0, struct card_resp *r);
bool card_addressed_(const struct sim_card *c, uint32_t arg);
void card_go_idle_(struct mmchal_sim *sim, struct sim_card *c);
void card_start_rw_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint64_t addr, bool wr,
		    int st0, struct card_resp *r);
bool card_select_programming_(struct mmchal_sim *sim, struct sim_card *c, uint32_t arg, int st0,
			      struct card_resp *r);
bool card_stop_or_status_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint32_t arg,
			  int st0, struct card_resp *r);

bool card_erase_cmd_(struct mmchal_sim *sim, struct sim_card *c, uint8_t idx, uint32_t arg, int st0,
		     struct card_resp *r);

/* card_sd.c, card_mmc.c, card_sdio.c */
void sd_init_regs_(struct sim_card *c);
void sd_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r);
void mmc_init_regs_(struct sim_card *c);
void mmc_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r);
void sd_clock_changed_(struct mmchal_sim *sim, bool on);
void sd_switch_done_(struct sim_card *c);
void sdio_init_regs_(struct sim_card *c);
void sdio_cmd_(struct mmchal_sim *sim, uint8_t idx, uint32_t arg, struct card_resp *r);
int sdio_read_block_(struct mmchal_sim *sim, uint8_t *buf, uint32_t len);
int sdio_write_block_(struct mmchal_sim *sim, const uint8_t *buf, uint32_t len);
bool sdio_irq_signalled_(const struct mmchal_sim *sim);

/* fault.c */
struct cmd_faults {
	bool timeout, crc, stuck, remove;
};
void fault_on_cmd_(struct mmchal_sim *sim, uint8_t idx, bool has_data, struct cmd_faults *cf);
void fault_on_block_(struct mmchal_sim *sim, uint32_t block);
void fault_time_event_(struct mmchal_sim *sim);
void fault_fired_(struct mmchal_sim *sim, enum mmchal_sim_fault_kind kind);
void fault_reschedule_(struct mmchal_sim *sim);

#endif /* MMCHAL_SIM_PRIV_H */
