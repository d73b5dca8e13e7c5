// The sweep's partition: METIS k-way into P parts with the load held to 0.1% over the mean.
// Every cell costs the same D tasks a sweep, so the most loaded rank sets the sweep's time;
// METIS's own default lets a part reach 3% over (cube-10717 into 2: 5473 and 5244 cells,
// 2.1% over, for an edge cut of 277 faces), where 0.1% gives 5353 and 5364 (0.1%) for a cut of
// 282 (on small meshes the cut grows more: a 3072-cell cube into 4 parts, by a third). tycho,
// tycho-model's projection, tycho-partition and the benchmarks all cut with this, so the
// ranks' schedules they each see are the same.
#pragma once
#include <string>

#include "mesh/partition.hpp"
#include "tycho/mesh_types.hpp"

namespace tycho {

inline constexpr int kSweepPartitionUfactor = 1;  // METIS's ufactor: thousandths over the mean

// mesh::metis_partition with kSweepPartitionUfactor: the same errors.
inline mesh::Partition sweep_partition(const Mesh& mesh, int parts, const std::string& name) {
  return mesh::metis_partition(mesh, parts, name, kSweepPartitionUfactor);
}

}  // namespace tycho
