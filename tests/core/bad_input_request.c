/*
 * Bad-input rows of the request entries and the host ops that check their
 * values before the backend sees them: a request without a command
 * (mmchal_host_request(), mmchal_host_request_sync() and the ops table's
 * request / request_sync), a refused request that must leave the host's
 * plan scratch as it was, set_ios with a bus width other than 1/4/8 or a
 * timing beyond the enum, and execute_tuning with an opcode other than 19
 * (SD) or 21 (eMMC).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

struct req_objs_ {
	struct mmchal_host *host;
	struct mmchal_request *req;
	struct mmchal_cmd *cmd;
	struct mmchal_data *data;
	struct mmchal_sg *sg;
};

static struct req_objs_ req_host(void)
{
	struct req_objs_ o;
	struct bi_spy *spy = BI_NEW(struct bi_spy);
	struct mmchal_backend *be = BI_NEW(struct mmchal_backend);
	struct mmchal_port *port = BI_NEW(struct mmchal_port);
	struct mmchal_host_cfg *cfg = BI_NEW(struct mmchal_host_cfg);

	be->ops = &bi_spy_backend_ops;
	be->ctx = spy;
	port->ops = &bi_port_ops;
	cfg->backend = be;
	cfg->port = port;
	o.host = BI_NEW(struct mmchal_host);
	if (mmchal_host_init(o.host, cfg) != 0)
		fail_msg("bad_input: host fixture");
	o.req = BI_NEW(struct mmchal_request);
	o.cmd = BI_NEW(struct mmchal_cmd);
	o.data = BI_NEW(struct mmchal_data);
	o.sg = BI_NEW(struct mmchal_sg);
	o.req->cmd = o.cmd;
	o.req->data = o.data;
	o.cmd->opcode = 17;
	o.cmd->flags = MMCHAL_RSP_R1;
	o.data->dir = MMCHAL_DIR_FROM_CARD;
	o.data->blksz = 512;
	o.data->blocks = 1;
	o.data->sg = o.sg;
	o.data->sg_len = 1;
	o.sg->len = 512;
	o.sg->cpu = bi_obj(512);
	return o;
}

static int req_no_cmd(void)
{
	struct req_objs_ o = req_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_request(o.host, o.req);
}

static int sync_no_cmd(void)
{
	struct req_objs_ o = req_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_request_sync(o.host, o.req, 10);
}

static int op_request_no_cmd(void)
{
	struct req_objs_ o = req_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_core_ops.request(o.host, o.req);
}

static int op_sync_no_cmd(void)
{
	struct req_objs_ o = req_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_core_ops.request_sync(o.host, o.req, 0);
}

static int req_no_cpu_strict(void)
{
	struct req_objs_ o = req_host();

	o.sg->cpu = NULL;
	bi_writable(&o.host->st, sizeof(o.host->st)); /* the documented reject counter */
	bi_arm();
	return mmchal_host_request(o.host, o.req);
}

static int op_set_ios_enum(void)
{
	struct req_objs_ o = req_host();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = MMCHAL_BUS_WIDTH_4;
	ios->timing = (enum mmchal_timing)99;
	bi_arm();
	return mmchal_host_core_ops.set_ios(o.host, ios);
}

static int op_set_ios_width(void)
{
	struct req_objs_ o = req_host();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = (enum mmchal_bus_width)2;
	bi_arm();
	return mmchal_host_core_ops.set_ios(o.host, ios);
}

static int op_tuning_opcode(void)
{
	struct req_objs_ o = req_host();

	bi_arm();
	return mmchal_host_core_ops.execute_tuning(o.host, 17);
}

const struct bi_row bi_rows_request[] = {
	BI_OP(mmchal_host_core_ops, set_ios, "timing 99", op_set_ios_enum, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, set_ios, "bus width 2", op_set_ios_width, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, execute_tuning, "opcode 17", op_tuning_opcode, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "NULL cmd", req_no_cmd, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request_sync, "NULL cmd", sync_no_cmd, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, request, "NULL cmd", op_request_no_cmd, MMCHAL_EINVAL),
	BI_OP(mmchal_host_core_ops, request_sync, "NULL cmd", op_sync_no_cmd, MMCHAL_EINVAL),
	BI_ROW(mmchal_host_request, "no CPU address: host scratch unchanged", req_no_cpu_strict,
	       MMCHAL_EINVAL),
};

const size_t bi_nrows_request = sizeof(bi_rows_request) / sizeof(bi_rows_request[0]);
