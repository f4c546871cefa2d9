/* cpus.h - how many CPUs this process may use
 * SPDX-License-Identifier: MIT
 *
 * The CPUs of the process's affinity mask (sched_getaffinity: taskset,
 * cpusets; those online where the mask cannot be read), bounded by the
 * CPU bandwidth quota of its cgroup and of each cgroup above it, rounded
 * down, at least one: what Rust's std::thread::available_parallelism
 * counts, and so ripgrep. A container started with --cpus=2 on a host
 * of 64 CPUs sees 64 in its mask and may use 2.
 *
 * The quota is read as Rust reads it: /proc/self/cgroup names the
 * process's cgroup; under cgroup v2 (its "0::PATH" line, and
 * /sys/fs/cgroup/PATH/cgroup.controllers present) each cpu.max ("QUOTA
 * PERIOD", or "max PERIOD" for none) from that directory up to
 * /sys/fs/cgroup; under v1 (a line whose controllers include "cpu",
 * which wins over v2) each cpu.cfs_quota_us and cpu.cfs_period_us
 * ("-1" for none) from /sys/fs/cgroup/cpu/PATH (or cpu,cpuacct/PATH)
 * up to that mount. The smallest QUOTA / PERIOD counts. A v1 hierarchy
 * mounted elsewhere is not looked for in /proc/self/mountinfo (Rust's
 * last resort). Worst case: a few small reads per level of the cgroup's
 * path.
 */
#ifndef TG_LIB_UTIL_CPUS_H
#define TG_LIB_UTIL_CPUS_H

#include <stddef.h>

/* The CPUs this process may use: at least 1. */
size_t tg_cpus_usable(void);

/* The CPUs the cgroup quota allows, as found under root (the system's
 * "/" is ""; a test's tree otherwise): 0 when there is no quota (or
 * nothing to read it from), else at least 1. */
size_t tg_cpus_quota(const char *root);

#endif
