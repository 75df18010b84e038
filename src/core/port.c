/**
 * @file
 * @brief Validation of the port, IOMMU, DMA-channel, backend and host-ops
 *        tables: a missing required op is an error at registration, never an
 *        assert or a NULL call later.
 *
 * Locking: none; any context.
 */
#include <mmchal/backend.h>
#include <mmchal/host.h>
#include <mmchal/port.h>

static bool is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1u)) == 0;
}

int mmchal_port_check(const struct mmchal_port *port)
{
	const struct mmchal_port_ops *ops;

	if (!port || !port->ops)
		return MMCHAL_EINVAL;
	ops = port->ops;
	if (!ops->now_ns || !ops->delay_us)
		return MMCHAL_EINVAL;
	if (!ops->lock_irqsave != !ops->unlock_irqrestore)
		return MMCHAL_EINVAL;
	if (!ops->cache_clean != !ops->cache_invalidate)
		return MMCHAL_EINVAL;
	if (port->cache_line != 0 && !is_pow2(port->cache_line))
		return MMCHAL_EINVAL;
	return 0;
}

int mmchal_iommu_check(const struct mmchal_iommu *iommu)
{
	if (!iommu || !iommu->ops)
		return MMCHAL_EINVAL;
	if (!iommu->ops->get_caps || !iommu->ops->map || !iommu->ops->unmap)
		return MMCHAL_EINVAL;
	return 0;
}

int mmchal_dma_chan_check(const struct mmchal_dma_chan *chan)
{
	if (!chan || !chan->ops)
		return MMCHAL_EINVAL;
	if (!chan->ops->get_caps || !chan->ops->prepare || !chan->ops->submit ||
	    !chan->ops->terminate)
		return MMCHAL_EINVAL;
	return 0;
}

int mmchal_backend_check(const struct mmchal_backend *be)
{
	const struct mmchal_backend_ops *ops;

	if (!be || !be->ops)
		return MMCHAL_EINVAL;
	ops = be->ops;
	if (!ops->name || !ops->probe || !ops->get_caps || !ops->set_ios || !ops->start ||
	    !ops->handle_irq || !ops->abort)
		return MMCHAL_EINVAL;
	return 0;
}

int mmchal_host_ops_check(const struct mmchal_host_ops *ops)
{
	if (!ops || !ops->request || !ops->set_ios)
		return MMCHAL_EINVAL;
	return 0;
}
