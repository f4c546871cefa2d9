/* test_cpus.c - util/cpus: the CPU quota of cgroup v2 and v1 trees
 * SPDX-License-Identifier: MIT
 *
 * Each case builds a tree like the system's (proc/self/cgroup and the
 * cgroup files under sys/fs/cgroup) in a temporary directory and reads
 * the quota there: the smallest QUOTA / PERIOD on the way up, rounded
 * down, at least 1; none where there is no limit, no cgroup2 under v2's
 * path, or nothing readable; v1's cpu line over v2's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "lib/util/cpus.h"

static char root[] = "/tmp/test_cpus.XXXXXX";

/* root/rel with its directories, holding text */
static void
put(const char *rel, const char *text)
{
	char p[512], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void
clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc %s/sys", root, root);
	if (system(cmd) != 0)
		exit(1);
}

int
main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}

	/* v2: the smallest on the way up, the group's own "max" none */
	put("proc/self/cgroup", "0::/a/b\n");
	put("sys/fs/cgroup/a/b/cgroup.controllers", "cpu io\n");
	put("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	put("sys/fs/cgroup/a/cpu.max", "250000 100000\n");
	CHECK(tg_cpus_quota(root) == 2, "v2: 2.5 CPUs above: %zu",
	      tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu.max", "150000 100000\n");
	CHECK(tg_cpus_quota(root) == 1, "v2: 1.5 at the mount: %zu",
	      tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu.max", "50000 100000\n");
	CHECK(tg_cpus_quota(root) == 1, "v2: half a CPU is one: %zu",
	      tg_cpus_quota(root));
	clean();

	/* v2 in a cgroup namespace: the container's cgroup is the mount */
	put("proc/self/cgroup", "0::/\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpu\n");
	put("sys/fs/cgroup/cpu.max", "400000 100000\n");
	CHECK(tg_cpus_quota(root) == 4, "v2 at the mount: %zu",
	      tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu.max", "max 100000\n");
	CHECK(tg_cpus_quota(root) == 0, "v2, no limit: %zu",
	      tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu.max", "lots 100000\n");
	CHECK(tg_cpus_quota(root) == 0, "v2, not a number: %zu",
	      tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu.max", "400000 0\n");
	CHECK(tg_cpus_quota(root) == 0, "v2, period 0: %zu",
	      tg_cpus_quota(root));
	clean();

	/* v2's path with no cgroup2 there (a hybrid system's
	 * /sys/fs/cgroup holds the v1 mounts): no quota */
	put("proc/self/cgroup", "0::/a\n");
	put("sys/fs/cgroup/a/cpu.max", "100000 100000\n");
	CHECK(tg_cpus_quota(root) == 0, "v2 without cgroup.controllers: %zu",
	      tg_cpus_quota(root));
	clean();

	/* v1, cpu,cpuacct mounted: its cpu line wins over 0::, "-1" above
	 * is no limit, the second mount is tried */
	put("proc/self/cgroup",
	    "5:memory:/docker/x\n2:cpu,cpuacct:/docker/x\n0::/\n");
	put("sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_quota_us", "300000\n");
	put("sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_period_us", "100000\n");
	put("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_quota_us", "-1\n");
	put("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_period_us", "100000\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpu\n");
	put("sys/fs/cgroup/cpu.max", "100000 100000\n");
	CHECK(tg_cpus_quota(root) == 3, "v1 over v2: %zu", tg_cpus_quota(root));
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "200000\n");
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	CHECK(tg_cpus_quota(root) == 2, "v1: 2 at the mount: %zu",
	      tg_cpus_quota(root));
	clean();

	/* v1 "cpuacct" alone is not "cpu"; then v2's line counts */
	put("proc/self/cgroup", "2:cpuacct:/x\n0::/\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpu\n");
	put("sys/fs/cgroup/cpu.max", "800000 100000\n");
	CHECK(tg_cpus_quota(root) == 8, "cpuacct is not cpu: %zu",
	      tg_cpus_quota(root));
	clean();

	/* nothing to read, or a path that is not absolute: none */
	CHECK(tg_cpus_quota(root) == 0, "no /proc/self/cgroup: %zu",
	      tg_cpus_quota(root));
	put("proc/self/cgroup", "0::relative\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpu\n");
	put("sys/fs/cgroup/cpu.max", "100000 100000\n");
	CHECK(tg_cpus_quota(root) == 0, "a relative path: %zu",
	      tg_cpus_quota(root));
	clean();

	CHECK(tg_cpus_usable() >= 1, "usable: %zu", tg_cpus_usable());

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd) != 0)
		return 1;
	return check_result("test_cpus");
}
