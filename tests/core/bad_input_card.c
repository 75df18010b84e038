/*
 * Bad-input rows: the card layer (card.h). An identified card is an eMMC
 * played by the mock backend behind the host core, all in the arena: a
 * refused call that sent a command changes the mock's log and counters and
 * fails its row. Only the card's error record may change on a failure
 * (documented: cleared at every call, filled on failure).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

static struct mmchal_card_cfg *card_cfg(void)
{
	struct mmchal_card_cfg *c = BI_NEW(struct mmchal_card_cfg);

	c->ops = &mmchal_host_core_ops;
	c->buf = bi_obj(MMCHAL_CARD_BUF_SIZE);
	return c;
}

static int setup_with(const struct mmchal_card_cfg *c)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);

	memset(card, 0x3c, sizeof(*card));
	bi_arm();
	return mmchal_card_setup(card, c);
}

static int setup_null_card(void)
{
	struct mmchal_card_cfg *c = card_cfg();

	bi_arm();
	return mmchal_card_setup(NULL, c);
}

static int setup_null_cfg(void)
{
	return setup_with(NULL);
}

static int setup_no_ops(void)
{
	struct mmchal_card_cfg *c = card_cfg();

	c->ops = NULL;
	return setup_with(c);
}

static int setup_no_request_sync(void)
{
	struct mmchal_card_cfg *c = card_cfg();
	struct mmchal_host_ops *ops = BI_NEW(struct mmchal_host_ops);

	*ops = mmchal_host_core_ops;
	ops->request_sync = NULL;
	c->ops = ops;
	return setup_with(c);
}

static int setup_no_set_ios(void)
{
	struct mmchal_card_cfg *c = card_cfg();
	struct mmchal_host_ops *ops = BI_NEW(struct mmchal_host_ops);

	*ops = mmchal_host_core_ops;
	ops->set_ios = NULL;
	c->ops = ops;
	return setup_with(c);
}

static int setup_no_buf(void)
{
	struct mmchal_card_cfg *c = card_cfg();

	c->buf = NULL;
	return setup_with(c);
}

static int setup_scratch_len0(void)
{
	struct mmchal_card_cfg *c = card_cfg();

	c->sg_scratch = BI_NEW(struct mmchal_sg);
	return setup_with(c);
}

/* A card object set up but never identified (no host behind it is needed). */
static struct mmchal_card *card_setup_only(void)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);
	struct mmchal_card_cfg *c = card_cfg();

	c->ops = &mmchal_host_core_ops;
	c->ctx = NULL;
	if (mmchal_card_setup(card, c) != 0)
		fail_msg("bad_input: card setup fixture");
	/* soldered: no card-detect call, so nothing but the card object is involved */
	card->caps.bus = MMCHAL_BUS_NONREMOVABLE;
	return card;
}

static int init_null(void)
{
	bi_arm();
	return mmchal_card_init(NULL);
}

static int init_not_set_up(void)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);

	bi_arm();
	return mmchal_card_init(card);
}

static struct mmchal_sg *sg_of(uint32_t len)
{
	struct mmchal_sg *sg = BI_NEW(struct mmchal_sg);

	sg->len = len;
	sg->cpu = bi_obj(len ? len : 1u);
	sg->phys = 0x50000000u;
	return sg;
}

/* The call failed with @p ret: the card's error record must say the same. */
static int recorded(const struct mmchal_card *card, int ret)
{
	return card->err.err == ret ? ret : 1000 + ret;
}

static int read_null(void)
{
	struct mmchal_sg *sg = sg_of(512);

	bi_arm();
	return mmchal_card_read(NULL, 0, 1, sg, 1);
}

static int read_not_set_up(void)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);
	struct mmchal_sg *sg = sg_of(512);

	bi_arm();
	return mmchal_card_read(card, 0, 1, sg, 1);
}

static int read_not_identified(void)
{
	struct mmchal_card *card = card_setup_only();
	struct mmchal_sg *sg = sg_of(512);

	bi_writable(&card->err, sizeof(card->err));
	bi_arm();
	return recorded(card, mmchal_card_read(card, 0, 1, sg, 1));
}

static int write_null(void)
{
	struct mmchal_sg *sg = sg_of(512);

	bi_arm();
	return mmchal_card_write(NULL, 0, 1, sg, 1);
}

static int write_not_identified(void)
{
	struct mmchal_card *card = card_setup_only();
	struct mmchal_sg *sg = sg_of(512);

	bi_writable(&card->err, sizeof(card->err));
	bi_arm();
	return recorded(card, mmchal_card_write(card, 0, 1, sg, 1));
}

static int erase_null(void)
{
	bi_arm();
	return mmchal_card_erase(NULL, 0, 1, MMCHAL_CARD_DISCARD);
}

static int erase_not_identified(void)
{
	struct mmchal_card *card = card_setup_only();

	bi_writable(&card->err, sizeof(card->err));
	bi_arm();
	return recorded(card, mmchal_card_erase(card, 0, 1, MMCHAL_CARD_ERASE));
}

static int present_null(void)
{
	bi_arm();
	return mmchal_card_check_present(NULL);
}

static int present_not_set_up(void)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);

	bi_arm();
	return mmchal_card_check_present(card);
}

static int info_null(void)
{
	bi_arm();
	return mmchal_card_info(NULL) == NULL ? 0 : 1;
}

static int last_error_null(void)
{
	bi_arm();
	return mmchal_card_last_error(NULL) == NULL ? 0 : 1;
}

#if MMCHAL_WITH_BACKEND_MOCK

#define IMAGE_BYTES (64u * 1024u)
#define SECTORS     (IMAGE_BYTES / 512u)

struct stack {
	struct mmchal_mock *mock;
	struct mmchal_host *host;
	struct mmchal_card *card;
};

static int ready_read_(struct stack *s, uint64_t lba, uint32_t blocks, const struct mmchal_sg *sg,
		       uint32_t nsg);

/* An identified card (eMMC of 128 sectors, or SDIO): mock -> host core -> card layer. */
static struct stack card_of(enum mmchal_mock_card type, bool write_protect)
{
	struct stack s;
	struct mmchal_mock_cfg *mc = BI_NEW(struct mmchal_mock_cfg);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);
	struct mmchal_port *port = BI_NEW(struct mmchal_port);
	struct mmchal_host_cfg *hc = BI_NEW(struct mmchal_host_cfg);
	struct mmchal_card_cfg *cc = card_cfg();

	mc->card = type;
	if (type != MMCHAL_MOCK_SDIO) {
		mc->image_size = IMAGE_BYTES;
		mc->image = bi_obj(IMAGE_BYTES);
	}
	mc->host.completion = MMCHAL_COMPLETES_POLLED;
	mc->host.bus = MMCHAL_BUS_4_BIT | MMCHAL_BUS_8_BIT | MMCHAL_BUS_NONREMOVABLE;
	s.mock = BI_NEW(struct mmchal_mock);
	s.host = BI_NEW(struct mmchal_host);
	s.card = BI_NEW(struct mmchal_card);
	port->ops = &bi_port_ops;
	hc->backend = be;
	hc->port = port;
	cc->ctx = s.host;
	if (mmchal_mock_init(s.mock, mc) != 0 || mmchal_mock_backend(s.mock, be) != 0 ||
	    mmchal_host_init(s.host, hc) != 0 || mmchal_card_setup(s.card, cc) != 0)
		fail_msg("bad_input: card stack fixture");
	mmchal_mock_set_write_protect(s.mock, write_protect);
	if (mmchal_card_init(s.card) != 0 ||
	    s.card->info.sectors != (type == MMCHAL_MOCK_SDIO ? 0u : SECTORS))
		fail_msg("bad_input: card identification fixture");
	return s;
}

static struct stack card_ready(bool write_protect)
{
	return card_of(MMCHAL_MOCK_EMMC, write_protect);
}

static int rd_sdio(void)
{
	struct stack s = card_of(MMCHAL_MOCK_SDIO, false);

	return ready_read_(&s, 0, 1, sg_of(512), 1);
}

static int er_sdio(void)
{
	struct stack s = card_of(MMCHAL_MOCK_SDIO, false);

	bi_writable(&s.card->err, sizeof(s.card->err));
	bi_arm();
	return recorded(s.card, mmchal_card_erase(s.card, 0, 1, MMCHAL_CARD_ERASE));
}

/* Set up over a host that is not live: identification is refused at once. */
static int init_host_not_live(void)
{
	struct mmchal_card *card = BI_NEW(struct mmchal_card);
	struct mmchal_card_cfg *c = card_cfg();
	struct mmchal_host *host = BI_NEW(struct mmchal_host);

	c->ctx = host;
	if (mmchal_card_setup(card, c) != 0)
		fail_msg("bad_input: card setup fixture");
	bi_writable(card, sizeof(*card)); /* init starts from scratch: info, caps, err */
	bi_arm();
	return recorded(card, mmchal_card_init(card)) | (card->ready ? 0x100 : 0);
}

/* Arm with only the error record writable; run the read. */
static int ready_read_(struct stack *s, uint64_t lba, uint32_t blocks, const struct mmchal_sg *sg,
		       uint32_t nsg)
{
	bi_writable(&s->card->err, sizeof(s->card->err));
	bi_arm();
	return recorded(s->card, mmchal_card_read(s->card, lba, blocks, sg, nsg));
}

static int rd_blocks0(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 0, 0, sg_of(512), 1);
}

static int rd_null_sg(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 0, 1, NULL, 1);
}

static int rd_nsg0(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 0, 1, sg_of(512), 0);
}

static int rd_len0(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 0, 1, sg_of(0), 1);
}

static int rd_sum(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 0, 2, sg_of(512), 1);
}

static int rd_past_end(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, SECTORS, 1, sg_of(512), 1);
}

static int rd_lba_max(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, UINT64_MAX, 1, sg_of(512), 1);
}

static int rd_blocks_max(void)
{
	struct stack s = card_ready(false);

	return ready_read_(&s, 1, UINT32_MAX, sg_of(512), 1);
}

/* The host was taken down under an identified card: refused, nothing sent. */
static int rd_host_gone(void)
{
	struct stack s = card_ready(false);

	mmchal_host_deinit(s.host);
	bi_writable(s.card->sg_inline, sizeof(s.card->sg_inline));
	return ready_read_(&s, 0, 1, sg_of(512), 1);
}

static int rd_no_cpu(void)
{
	struct stack s = card_ready(false);
	struct mmchal_sg *sg = sg_of(512);

	sg->cpu = NULL; /* the mock host is PIO only */
	/* refused by the host core before anything is sent: only its reject
	 * counter moves */
	bi_writable(&s.host->st, sizeof(s.host->st));
	/* the split copied the entry into the card's documented scratch */
	bi_writable(s.card->sg_inline, sizeof(s.card->sg_inline));
	return ready_read_(&s, 0, 1, sg, 1);
}

static int ready_write(struct stack *s, uint64_t lba, uint32_t blocks, const struct mmchal_sg *sg,
		       uint32_t nsg)
{
	bi_writable(&s->card->err, sizeof(s->card->err));
	bi_arm();
	return recorded(s->card, mmchal_card_write(s->card, lba, blocks, sg, nsg));
}

static int wr_protected(void)
{
	struct stack s = card_ready(true);

	return ready_write(&s, 0, 1, sg_of(512), 1);
}

static int wr_null_sg(void)
{
	struct stack s = card_ready(false);

	return ready_write(&s, 0, 1, NULL, 1);
}

static int wr_past_end(void)
{
	struct stack s = card_ready(false);

	return ready_write(&s, SECTORS - 1u, 2, sg_of(1024), 1);
}

static int wr_blocks0(void)
{
	struct stack s = card_ready(false);

	return ready_write(&s, 0, 0, sg_of(512), 1);
}

static int ready_erase(struct stack *s, uint64_t lba, uint32_t blocks, enum mmchal_erase_kind kind)
{
	bi_writable(&s->card->err, sizeof(s->card->err));
	bi_arm();
	return recorded(s->card, mmchal_card_erase(s->card, lba, blocks, kind));
}

static int er_kind(void)
{
	struct stack s = card_ready(false);

	return ready_erase(&s, 0, 1, (enum mmchal_erase_kind)2);
}

static int er_kind_negative(void)
{
	struct stack s = card_ready(false);

	return ready_erase(&s, 0, 1, (enum mmchal_erase_kind) - 1);
}

static int er_blocks0(void)
{
	struct stack s = card_ready(false);

	return ready_erase(&s, 0, 0, MMCHAL_CARD_DISCARD);
}

static int er_past_end(void)
{
	struct stack s = card_ready(false);

	return ready_erase(&s, UINT64_MAX, UINT32_MAX, MMCHAL_CARD_DISCARD);
}

static int er_protected(void)
{
	struct stack s = card_ready(true);

	return ready_erase(&s, 0, 1, MMCHAL_CARD_DISCARD);
}

#endif /* MMCHAL_WITH_BACKEND_MOCK */

const struct bi_row bi_rows_card[] = {
	BI_ROW(mmchal_card_setup, "NULL card", setup_null_card, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "NULL cfg", setup_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "NULL ops", setup_no_ops, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "ops without request_sync", setup_no_request_sync, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "ops without set_ios", setup_no_set_ios, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "NULL buf", setup_no_buf, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_setup, "scratch of 0 entries", setup_scratch_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_init, "NULL", init_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_init, "never set up", init_not_set_up, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "NULL card", read_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "never set up", read_not_set_up, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "never identified", read_not_identified, MMCHAL_ENOMEDIUM),
	BI_ROW(mmchal_card_write, "NULL card", write_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_write, "never identified", write_not_identified, MMCHAL_ENOMEDIUM),
	BI_ROW(mmchal_card_erase, "NULL card", erase_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_erase, "never identified", erase_not_identified, MMCHAL_ENOMEDIUM),
	BI_ROW(mmchal_card_check_present, "NULL", present_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_check_present, "never set up", present_not_set_up, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_info, "NULL", info_null, 0),
	BI_ROW(mmchal_card_last_error, "NULL", last_error_null, 0),
#if MMCHAL_WITH_BACKEND_MOCK
	BI_ROW(mmchal_card_init, "host not live", init_host_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "SDIO card", rd_sdio, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_card_erase, "SDIO card", er_sdio, MMCHAL_ENOTSUP),
	BI_ROW(mmchal_card_read, "0 blocks", rd_blocks0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "NULL sg", rd_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "0 entries", rd_nsg0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "entry length 0", rd_len0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "lengths do not add up", rd_sum, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "lba = sectors", rd_past_end, MMCHAL_ERANGE),
	BI_ROW(mmchal_card_read, "lba UINT64_MAX", rd_lba_max, MMCHAL_ERANGE),
	BI_ROW(mmchal_card_read, "blocks UINT32_MAX", rd_blocks_max, MMCHAL_ERANGE),
	BI_ROW(mmchal_card_read, "host taken down", rd_host_gone, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_read, "entry without CPU address on a PIO host", rd_no_cpu,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_card_write, "write-protected card", wr_protected, MMCHAL_EROFS),
	BI_ROW(mmchal_card_write, "NULL sg", wr_null_sg, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_write, "last block + 1", wr_past_end, MMCHAL_ERANGE),
	BI_ROW(mmchal_card_write, "0 blocks", wr_blocks0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_erase, "kind 2", er_kind, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_erase, "kind -1", er_kind_negative, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_erase, "0 blocks", er_blocks0, MMCHAL_EINVAL),
	BI_ROW(mmchal_card_erase, "lba UINT64_MAX, blocks UINT32_MAX", er_past_end, MMCHAL_ERANGE),
	BI_ROW(mmchal_card_erase, "write-protected card", er_protected, MMCHAL_EROFS),
#endif
};

const size_t bi_nrows_card = sizeof(bi_rows_card) / sizeof(bi_rows_card[0]);
