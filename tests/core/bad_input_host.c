/*
 * Bad-input rows: the host object (host_core.h) and its ops table
 * ::mmchal_host_core_ops. The host runs over the spy backend, whose call
 * counters live in the arena: a refused call that reached the backend fails
 * its row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

struct host_objs {
	struct mmchal_host_cfg *cfg;
	struct mmchal_backend *be;
	struct mmchal_port *port;
	struct bi_spy *spy;
	struct mmchal_host *host;
};

static struct host_objs host_cfg(void)
{
	struct host_objs o;

	o.spy = BI_NEW(struct bi_spy);
	o.be = BI_NEW(struct mmchal_backend);
	o.be->ops = &bi_spy_backend_ops;
	o.be->ctx = o.spy;
	o.port = BI_NEW(struct mmchal_port);
	o.port->ops = &bi_port_ops;
	o.cfg = BI_NEW(struct mmchal_host_cfg);
	o.cfg->backend = o.be;
	o.cfg->port = o.port;
	o.host = BI_NEW(struct mmchal_host);
	return o;
}

static struct host_objs host_live(void)
{
	struct host_objs o = host_cfg();

	if (mmchal_host_init(o.host, o.cfg) != 0)
		fail_msg("bad_input: host fixture");
	return o;
}

/* ------------------------------------------------------------ mmchal_host_init */

static int init_null_host(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return mmchal_host_init(NULL, o.cfg);
}

/* The host storage holds a pattern, so that clearing it shows: a missing
 * table is refused before the host is touched. */
static struct host_objs host_cfg_marked(void)
{
	struct host_objs o = host_cfg();

	memset(o.host, 0xa5, sizeof(*o.host));
	return o;
}

static int init_null_cfg(void)
{
	struct host_objs o = host_cfg_marked();

	bi_arm();
	return mmchal_host_init(o.host, NULL);
}

static int init_no_backend(void)
{
	struct host_objs o = host_cfg_marked();

	o.cfg->backend = NULL;
	bi_arm();
	return mmchal_host_init(o.host, o.cfg);
}

static int init_no_port(void)
{
	struct host_objs o = host_cfg_marked();

	o.cfg->port = NULL;
	bi_arm();
	return mmchal_host_init(o.host, o.cfg);
}

/* Refused after the host storage was cleared: documented "left not live". */
static int init_refused(struct host_objs *o)
{
	bi_writable(o->host, sizeof(*o->host));
	bi_arm();
	return mmchal_host_init(o->host, o->cfg) | (mmchal_host_limits(o->host) ? 0x100 : 0);
}

static int init_backend_incomplete(void)
{
	struct host_objs o = host_cfg();
	struct mmchal_backend_ops *ops = BI_NEW(struct mmchal_backend_ops);

	*ops = bi_spy_backend_ops;
	ops->handle_irq = NULL;
	o.be->ops = ops;
	return init_refused(&o);
}

static int init_port_incomplete(void)
{
	struct host_objs o = host_cfg();
	struct mmchal_port_ops *ops = BI_NEW(struct mmchal_port_ops);

	*ops = bi_port_ops;
	ops->delay_us = NULL;
	o.port->ops = ops;
	return init_refused(&o);
}

static int init_seg_table_no_len(void)
{
	struct host_objs o = host_cfg();

	o.cfg->seg_table = BI_NEW(struct mmchal_dma_seg);
	return init_refused(&o);
}

static int init_seg_len_no_table(void)
{
	struct host_objs o = host_cfg();

	o.cfg->seg_table_len = UINT32_MAX;
	return init_refused(&o);
}

static int init_policy_enum(void)
{
	struct host_objs o = host_cfg();

	o.cfg->policy.override = (enum mmchal_completion_policy)9;
	bi_writable(o.spy, sizeof(*o.spy)); /* probe and get_caps run first */
	return init_refused(&o);
}

static int init_policy_impossible(void)
{
	struct host_objs o = host_cfg();

	/* the spy completes by polling: no interrupt policy */
	o.cfg->policy.override = MMCHAL_POLICY_IRQ_LOCKED;
	bi_writable(o.spy, sizeof(*o.spy));
	return init_refused(&o);
}

static int init_domain_uninit(void)
{
	struct host_objs o = host_cfg();

	o.cfg->iommu = BI_NEW(struct mmchal_iommu_domain);
	bi_writable(o.spy, sizeof(*o.spy));
	return init_refused(&o);
}

static int init_bounce_uninit(void)
{
	struct host_objs o = host_cfg();

	o.cfg->bounce = BI_NEW(struct mmchal_bounce);
	bi_writable(o.spy, sizeof(*o.spy));
	return init_refused(&o);
}

/* ------------------------------------------------------------ the other calls */

static int deinit_null(void)
{
	bi_arm();
	mmchal_host_deinit(NULL);
	return 0;
}

static int deinit_not_live(void)
{
	struct host_objs o = host_cfg();

	memset(o.host, 0x3c, sizeof(*o.host));
	bi_arm();
	mmchal_host_deinit(o.host);
	return 0;
}

struct req_objs {
	struct mmchal_request *req;
	struct mmchal_cmd *cmd;
	struct mmchal_data *data;
	struct mmchal_sg *sg;
};

/* CMD17 reading one 512-byte block into the arena. */
static struct req_objs read_req(void)
{
	struct req_objs r;

	r.req = BI_NEW(struct mmchal_request);
	r.cmd = BI_NEW(struct mmchal_cmd);
	r.data = BI_NEW(struct mmchal_data);
	r.sg = BI_NEW(struct mmchal_sg);
	r.req->cmd = r.cmd;
	r.req->data = r.data;
	r.cmd->opcode = 17;
	r.cmd->flags = MMCHAL_RSP_R1;
	r.data->dir = MMCHAL_DIR_FROM_CARD;
	r.data->blksz = 512;
	r.data->blocks = 1;
	r.data->sg = r.sg;
	r.data->sg_len = 1;
	r.sg->len = 512;
	r.sg->cpu = bi_obj(512);
	r.sg->phys = 0x40000000u;
	return r;
}

static int req_null_host(void)
{
	struct req_objs r = read_req();

	bi_arm();
	return mmchal_host_request(NULL, r.req);
}

static int req_null_req(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return mmchal_host_request(o.host, NULL);
}

static int req_not_live(void)
{
	struct host_objs o = host_cfg();
	struct req_objs r = read_req();

	bi_arm();
	return mmchal_host_request(o.host, r.req);
}

/* Refused by validation: only the host's reject counter may move. */
static int req_refused(struct host_objs *o, struct req_objs *r)
{
	bi_writable(&o->host->st, sizeof(o->host->st));
	bi_arm();
	return mmchal_host_request(o->host, r->req) |
	       (o->host->st.rejected_invalid == 1u ? 0 : 0x100);
}

static int req_opcode(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.cmd->opcode = 0xffffffffu;
	return req_refused(&o, &r);
}

static int req_dir(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.data->dir = (enum mmchal_dir)3;
	return req_refused(&o, &r);
}

static int req_blocks_max(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.data->blocks = UINT32_MAX;
	return req_refused(&o, &r);
}

static int req_sg_len_max(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.data->sg_len = UINT32_MAX;
	return req_refused(&o, &r);
}

static int req_no_cpu(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.sg->cpu = NULL; /* PIO needs it */
	return req_refused(&o, &r);
}

static int req_busy(void)
{
	struct host_objs o = host_live();
	struct req_objs first = read_req();
	struct req_objs r = read_req();

	if (mmchal_host_request(o.host, first.req) != 0)
		fail_msg("bad_input: first request refused");
	bi_writable(&o.host->st, sizeof(o.host->st));
	bi_arm();
	return mmchal_host_request(o.host, r.req) | (o.host->st.rejected_busy == 1u ? 0 : 0x100);
}

static int sync_null_host(void)
{
	struct req_objs r = read_req();

	bi_arm();
	return mmchal_host_request_sync(NULL, r.req, 0);
}

static int sync_null_req(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return mmchal_host_request_sync(o.host, NULL, UINT32_MAX);
}

static int sync_not_live(void)
{
	struct host_objs o = host_cfg();
	struct req_objs r = read_req();

	bi_arm();
	return mmchal_host_request_sync(o.host, r.req, 1);
}

static int sync_invalid(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	r.data->blksz = 0;
	bi_writable(&o.host->st, sizeof(o.host->st));
	bi_arm();
	return mmchal_host_request_sync(o.host, r.req, UINT32_MAX);
}

static int irq_null(void)
{
	bi_arm();
	return mmchal_host_irq(NULL);
}

static int irq_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return mmchal_host_irq(o.host);
}

static int poll_null(void)
{
	bi_arm();
	return mmchal_host_poll(NULL);
}

static int poll_not_live(void)
{
	struct host_objs o = host_cfg();

	memset(o.host, 0xff, sizeof(*o.host));
	bi_arm();
	return mmchal_host_poll(o.host);
}

static int abort_null(void)
{
	bi_arm();
	return mmchal_host_abort(NULL);
}

static int abort_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return mmchal_host_abort(o.host);
}

static int abort_idle(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return mmchal_host_abort(o.host);
}

static int limits_null(void)
{
	bi_arm();
	return mmchal_host_limits(NULL) == NULL ? 0 : 1;
}

static int limits_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return mmchal_host_limits(o.host) == NULL ? 0 : 1;
}

static int stats_null(void)
{
	struct mmchal_host_stats *st = BI_NEW(struct mmchal_host_stats);

	bi_arm();
	return mmchal_host_stats(NULL, st);
}

static int stats_null_out(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return mmchal_host_stats(o.host, NULL);
}

static int stats_not_live(void)
{
	struct host_objs o = host_cfg();
	struct mmchal_host_stats *st = BI_NEW(struct mmchal_host_stats);

	bi_arm();
	return mmchal_host_stats(o.host, st);
}

static int explain_null(void)
{
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_host_explain(NULL, buf, 256);
}

static int explain_null_buf(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return mmchal_host_explain(o.host, NULL, 4096);
}

static int explain_size0(void)
{
	struct host_objs o = host_live();
	char *buf = bi_obj(16);

	bi_arm();
	return mmchal_host_explain(o.host, buf, 0);
}

static int explain_not_live(void)
{
	struct host_objs o = host_cfg();
	char *buf = bi_obj(256);

	bi_arm();
	return mmchal_host_explain(o.host, buf, 256);
}

static int explain_small(void)
{
	struct host_objs o = host_live();
	char *buf = bi_obj(10);

	bi_writable(buf, 10);
	bi_arm();
	return mmchal_host_explain(o.host, buf, 10);
}

static int explain_size_max(void)
{
	struct host_objs o = host_live();
	char *buf = bi_obj(8192);
	int len = mmchal_host_explain(o.host, buf, 8192);

	if (len <= 0)
		fail_msg("bad_input: host explain fixture");
	bi_writable(buf, (size_t)len + 1u);
	bi_arm();
	return mmchal_host_explain(o.host, buf, SIZE_MAX) == len ? 0 : 1;
}

/* ------------------------------------------------------------ mmchal_host_core_ops */

#define OPS mmchal_host_core_ops

static int op_init_card_null(void)
{
	bi_arm();
	return OPS.init_card(NULL, MMCHAL_CARD_SD);
}

static int op_init_card_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return OPS.init_card(o.host, MMCHAL_CARD_SD);
}

static int op_init_card_enum(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.init_card(o.host, (enum mmchal_card_type)17);
}

static int op_request_null(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.request(o.host, NULL);
}

static int op_request_null_ctx(void)
{
	struct req_objs r = read_req();

	bi_arm();
	return OPS.request(NULL, r.req);
}

static int op_card_busy_null(void)
{
	bi_arm();
	return OPS.card_busy(NULL);
}

static int op_card_busy_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return OPS.card_busy(o.host);
}

static int op_set_ios_null(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.set_ios(o.host, NULL);
}

static int op_set_ios_null_ctx(void)
{
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	bi_arm();
	return OPS.set_ios(NULL, ios);
}

static int op_set_ios_busy(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = MMCHAL_BUS_WIDTH_1; /* valid: only the request in flight refuses it */
	if (mmchal_host_request(o.host, r.req) != 0)
		fail_msg("bad_input: request refused");
	bi_arm();
	return OPS.set_ios(o.host, ios);
}

static int op_get_cd_null(void)
{
	bi_arm();
	return OPS.get_cd(NULL);
}

static int op_get_ro_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return OPS.get_ro(o.host);
}

static int op_hw_reset_null(void)
{
	bi_arm();
	return OPS.hw_reset(NULL);
}

static int op_hw_reset_busy(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	if (mmchal_host_request(o.host, r.req) != 0)
		fail_msg("bad_input: request refused");
	bi_arm();
	return OPS.hw_reset(o.host);
}

static int op_init_card_busy(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	if (mmchal_host_request(o.host, r.req) != 0)
		fail_msg("bad_input: request refused");
	bi_arm();
	return OPS.init_card(o.host, MMCHAL_CARD_MMC);
}

static int op_tuning_busy(void)
{
	struct host_objs o = host_live();
	struct req_objs r = read_req();

	if (mmchal_host_request(o.host, r.req) != 0)
		fail_msg("bad_input: request refused");
	bi_arm();
	return OPS.execute_tuning(o.host, 21);
}

static int op_tuning_null(void)
{
	bi_arm();
	return OPS.execute_tuning(NULL, 21);
}

static int op_sdio_irq_not_live(void)
{
	struct host_objs o = host_cfg();

	bi_arm();
	return OPS.enable_sdio_irq(o.host, true);
}

static int op_sync_null(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.request_sync(o.host, NULL, 0);
}

static int op_get_caps_null(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.get_caps(o.host, NULL);
}

static int op_get_caps_not_live(void)
{
	struct host_objs o = host_cfg();
	struct mmchal_host_caps *c = BI_NEW(struct mmchal_host_caps);

	bi_arm();
	return OPS.get_caps(o.host, c);
}

static int op_get_limits_null(void)
{
	struct host_objs o = host_live();

	bi_arm();
	return OPS.get_limits(o.host, NULL);
}

static int op_get_limits_not_live(void)
{
	struct host_objs o = host_cfg();
	struct mmchal_limits *l = BI_NEW(struct mmchal_limits);

	bi_arm();
	return OPS.get_limits(o.host, l);
}

const struct bi_row bi_rows_host[] = {
	BI_ROW(mmchal_host_init, "NULL host", init_null_host, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "NULL cfg", init_null_cfg, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "NULL backend", init_no_backend, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "NULL port", init_no_port, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "backend without handle_irq", init_backend_incomplete,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "port without delay_us", init_port_incomplete, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "segment table without length", init_seg_table_no_len,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "segment table length UINT32_MAX without table",
	       init_seg_len_no_table, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "policy override 9", init_policy_enum, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "IRQ policy on a polled backend", init_policy_impossible,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "IOMMU domain never initialised", init_domain_uninit,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_init, "bounce pool never initialised", init_bounce_uninit,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_deinit, "NULL", deinit_null, 0),
	BI_ROW(mmchal_host_deinit, "not live (garbage)", deinit_not_live, 0),
	BI_ROW(mmchal_host_request, "NULL host", req_null_host, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "NULL request", req_null_req, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "host not live", req_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "opcode UINT32_MAX", req_opcode, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "direction 3", req_dir, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "blocks UINT32_MAX", req_blocks_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "sg_len UINT32_MAX", req_sg_len_max, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "PIO entry without CPU address", req_no_cpu, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "another request in flight", req_busy, MMCHAL_EBUSY),
	BI_ROW(mmchal_host_request_sync, "NULL host", sync_null_host, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request_sync, "NULL request", sync_null_req, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request_sync, "host not live", sync_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request_sync, "block size 0, timeout UINT32_MAX", sync_invalid,
	       MMCHAL_EINVAL),
	BI_ROW(mmchal_host_irq, "NULL", irq_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_irq, "not live", irq_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_poll, "NULL", poll_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_poll, "not live (0xff bytes)", poll_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_abort, "NULL", abort_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_abort, "not live", abort_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_abort, "no request in flight", abort_idle, MMCHAL_ENOENT),
	BI_ROW(mmchal_host_limits, "NULL", limits_null, 0),
	BI_ROW(mmchal_host_limits, "not live", limits_not_live, 0),
	BI_ROW(mmchal_host_stats, "NULL host", stats_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_stats, "NULL out", stats_null_out, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_stats, "not live", stats_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_explain, "NULL host", explain_null, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_explain, "NULL buf", explain_null_buf, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_explain, "size 0", explain_size0, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_explain, "not live", explain_not_live, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_explain, "size 10", explain_small, MMCHAL_ENOSPC),
	BI_ROW(mmchal_host_explain, "size SIZE_MAX", explain_size_max, 0),
	BI_OP(mmchal_host_core_ops, init_card, "NULL ctx", op_init_card_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, init_card, "not live", op_init_card_not_live, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, init_card, "card type 17", op_init_card_enum, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, request, "NULL request", op_request_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, request, "NULL ctx", op_request_null_ctx, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, card_busy, "NULL ctx", op_card_busy_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, card_busy, "not live", op_card_busy_not_live, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, set_ios, "NULL ios", op_set_ios_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, set_ios, "NULL ctx", op_set_ios_null_ctx, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, set_ios, "request in flight", op_set_ios_busy, MMCHAL_EBUSY),
	BI_OP(mmchal_host_core_ops, get_cd, "NULL ctx", op_get_cd_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, get_ro, "not live", op_get_ro_not_live, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, hw_reset, "NULL ctx", op_hw_reset_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, hw_reset, "request in flight", op_hw_reset_busy, MMCHAL_EBUSY),
	BI_OP(mmchal_host_core_ops, execute_tuning, "NULL ctx", op_tuning_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, execute_tuning, "request in flight", op_tuning_busy,
	      MMCHAL_EBUSY),
	BI_OP(mmchal_host_core_ops, init_card, "request in flight", op_init_card_busy,
	      MMCHAL_EBUSY),
	BI_OP(mmchal_host_core_ops, enable_sdio_irq, "not live", op_sdio_irq_not_live,
	      MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, request_sync, "NULL request", op_sync_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, get_caps, "NULL out", op_get_caps_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, get_caps, "not live", op_get_caps_not_live, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, get_limits, "NULL out", op_get_limits_null, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, get_limits, "not live", op_get_limits_not_live, MMCHAL_EINVAL),
};

const size_t bi_nrows_host = sizeof(bi_rows_host) / sizeof(bi_rows_host[0]);
