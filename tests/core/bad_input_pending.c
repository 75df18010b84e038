/*
 * Bad-input rows that fail today and wait for a fix in src/core/request.c
 * (program core_bad_input_pending: built, not registered with ctest until
 * the fix lands; then these rows move into bad_input_host.c).
 *
 * 1. mmchal_host_request(), mmchal_host_request_sync() and the ops table's
 *    request / request_sync dereference req->cmd before validating it: a
 *    request without a command crashes instead of returning MMCHAL_EINVAL.
 *    Fix: refuse `!req->cmd` together with `!req`, before the host is
 *    claimed (so, like a NULL request, it is not counted as rejected).
 * 2. A request refused because the plan needs a CPU address that an entry
 *    lacks leaves its plan in the host's private scratch (h->plan).
 *    Fix: plan into a local ::mmchal_plan_result and store it in h->plan
 *    only once the request is accepted.
 *
 * And two in src/core/host.c, where the ops table passes bad values on to
 * the backend (which may or may not check them) instead of refusing them:
 * 3. set_ios with a bus width other than 1/4/8, or a timing, power mode or
 *    signal voltage beyond the enum: refuse with MMCHAL_EINVAL in op_set_ios
 *    before the lock is taken; the backend is not called.
 * 4. execute_tuning with an opcode other than 19 (SD) or 21 (eMMC), the only
 *    values host.h allows: refuse with MMCHAL_EINVAL in op_execute_tuning.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bad_input.h"

struct pend_objs {
	struct mmchal_host *host;
	struct mmchal_request *req;
	struct mmchal_cmd *cmd;
	struct mmchal_data *data;
	struct mmchal_sg *sg;
};

static struct pend_objs pend_host(void)
{
	struct pend_objs o;
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
	struct pend_objs o = pend_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_request(o.host, o.req);
}

static int sync_no_cmd(void)
{
	struct pend_objs o = pend_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_request_sync(o.host, o.req, 10);
}

static int op_request_no_cmd(void)
{
	struct pend_objs o = pend_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_core_ops.request(o.host, o.req);
}

static int op_sync_no_cmd(void)
{
	struct pend_objs o = pend_host();

	o.req->cmd = NULL;
	bi_arm();
	return mmchal_host_core_ops.request_sync(o.host, o.req, 0);
}

static int req_no_cpu_strict(void)
{
	struct pend_objs o = pend_host();

	o.sg->cpu = NULL;
	bi_writable(&o.host->st, sizeof(o.host->st)); /* the documented reject counter */
	bi_arm();
	return mmchal_host_request(o.host, o.req);
}

static int op_set_ios_enum(void)
{
	struct pend_objs o = pend_host();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = MMCHAL_BUS_WIDTH_4;
	ios->timing = (enum mmchal_timing)99;
	bi_arm();
	return mmchal_host_core_ops.set_ios(o.host, ios);
}

static int op_set_ios_width(void)
{
	struct pend_objs o = pend_host();
	struct mmchal_ios *ios = BI_NEW(struct mmchal_ios);

	ios->bus_width = (enum mmchal_bus_width)2;
	bi_arm();
	return mmchal_host_core_ops.set_ios(o.host, ios);
}

static int op_tuning_opcode(void)
{
	struct pend_objs o = pend_host();

	bi_arm();
	return mmchal_host_core_ops.execute_tuning(o.host, 17);
}

const struct bi_row bi_rows_pending[] = {
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

const size_t bi_nrows_pending = sizeof(bi_rows_pending) / sizeof(bi_rows_pending[0]);
