/**
 * @file
 * @brief Internal: B+-tree maintenance of the IOVA allocator (iova_tree.c).
 *
 * Locking: none; the caller of the public API serialises.
 */
#ifndef MMCHAL_IOMMU_IOVA_TREE_H
#define MMCHAL_IOMMU_IOVA_TREE_H

#include "iommu/iova_node.h"

/* One entry on its way into a node. */
struct iova_item_ {
	uint64_t key;
	uint64_t end;
	uint64_t gap;
	iova_node_ *child;
	uint8_t ord;
};

/* Largest gap values (and orders) that left and joined a node's own gaps.
 * rm_* are valued with old_excl (the excluded gap before the operation),
 * add_* with the allocator's current one. */
struct iova_delta_ {
	uint64_t rm_gap;
	uint64_t add_gap;
	uint64_t old_excl;
	uint8_t rm_ord;
	uint8_t add_ord;
};

iova_node_ *iova_node_get_(struct mmchal_iova *v);
void iova_refresh_up_(struct mmchal_iova *v, iova_node_ *nd);
void iova_climb_(struct mmchal_iova *v, iova_node_ *nd, const struct iova_delta_ *d);
unsigned int iova_nodes_needed_(const struct mmchal_iova *v, const iova_node_ *leaf);
void iova_leaf_insert_(struct mmchal_iova *v, iova_node_ *leaf, uint64_t s, uint64_t e,
		       uint64_t old_excl);
void iova_leaf_remove_(struct mmchal_iova *v, iova_node_ *leaf, unsigned int idx,
		       uint64_t old_excl);
void iova_gap_counted_(struct mmchal_iova *v, iova_node_ *leaf, unsigned int idx);

#endif /* MMCHAL_IOMMU_IOVA_TREE_H */
