/* cpus.c - how many CPUs this process may use
 * SPDX-License-Identifier: MIT
 *
 * See cpus.h: the affinity mask, bounded by the cgroup's CPU quota as
 * Rust's std::thread::available_parallelism reads it (v2 cpu.max, v1
 * cpu.cfs_quota_us / cpu.cfs_period_us, at each level up to the
 * hierarchy's mount).
 */
#include "lib/util/cpus.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_CAP 4096
/* /proc/self/cgroup: a line per v1 hierarchy and one for v2 */
#define CGROUP_CAP 16384

/* The bytes of the small file at path into buf (NUL-terminated, at
 * most cap - 1 of them): their count, or -1. */
static ssize_t
read_small(const char *path, char *buf, size_t cap)
{
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	while (n + 1 < cap) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				n = (size_t)-1;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	if (n == (size_t)-1)
		return -1;
	buf[n] = '\0';
	return (ssize_t)n;
}

/* The unsigned decimal at *s (after blanks), up to a blank or the end:
 * 1 and *v, or 0 ("max", "-1", anything else). */
static int
number(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - 9) / 10)
			return 0;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p && *p != ' ' && *p != '\t' && *p != '\n')
		return 0;
	*s = p;
	*v = x;
	return 1;
}

/* QUOTA / PERIOD into *q when both read and PERIOD > 0, the smaller. */
static void
take(uint64_t quota, uint64_t period, uint64_t *q)
{
	if (period && quota / period < *q)
		*q = quota / period;
}

/* dir's parent, in place, unless dir is top: 1, or 0 at top. */
static int
up(char *dir, size_t top)
{
	char *slash;

	if (strlen(dir) <= top)
		return 0;
	slash = strrchr(dir, '/');
	if (!slash || (size_t)(slash - dir) < top)
		return 0;
	*slash = '\0';
	return 1;
}

/* v2: cpu.max in dir and each directory above it up to the mount (top
 * bytes of dir). */
static void
quota_v2(char *dir, size_t top, uint64_t *q)
{
	char file[PATH_CAP + 16], buf[64];
	struct stat st;

	snprintf(file, sizeof(file), "%s/cgroup.controllers", dir);
	if (stat(file, &st) != 0)
		return; /* no cgroup2 there */
	do {
		const char *p = buf;
		uint64_t quota, period;

		snprintf(file, sizeof(file), "%s/cpu.max", dir);
		if (read_small(file, buf, sizeof(buf)) > 0 &&
		    number(&p, &quota) && number(&p, &period))
			take(quota, period, q);
	} while (up(dir, top));
}

/* v1: cpu.cfs_quota_us and cpu.cfs_period_us in dir and each directory
 * above it up to the mount (top bytes of dir). */
static void
quota_v1(char *dir, size_t top, uint64_t *q)
{
	char file[PATH_CAP + 32], a[32], b[32];

	do {
		const char *pa = a, *pb = b;
		uint64_t quota, period;

		snprintf(file, sizeof(file), "%s/cpu.cfs_quota_us", dir);
		if (read_small(file, a, sizeof(a)) <= 0 || !number(&pa, &quota))
			continue;
		snprintf(file, sizeof(file), "%s/cpu.cfs_period_us", dir);
		if (read_small(file, b, sizeof(b)) > 0 && number(&pb, &period))
			take(quota, period, q);
	} while (up(dir, top));
}

/* Whether the comma-separated list of controllers s names "cpu". */
static int
has_cpu(const char *s)
{
	for (;;) {
		size_t n = strcspn(s, ",");

		if (n == 3 && memcmp(s, "cpu", 3) == 0)
			return 1;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

size_t
tg_cpus_quota(const char *root)
{
	static const char *const v1_mounts[] = {"/sys/fs/cgroup/cpu",
						"/sys/fs/cgroup/cpu,cpuacct"};
	char buf[CGROUP_CAP], path[PATH_CAP], dir[PATH_CAP], *line, *next;
	uint64_t q = UINT64_MAX;
	int version = 0, w;
	size_t k;
	struct stat st;

	w = snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	if (w < 0 || (size_t)w >= sizeof(path) ||
	    read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	/* ID:CONTROLLERS:PATH; v1's cpu line wins over v2's */
	path[0] = '\0';
	for (line = buf; line && *line; line = next) {
		char *c1 = strchr(line, ':'), *c2, *ctl;
		int v = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		ctl = c1 + 1;
		if (!*ctl)
			v = 2;
		else if (has_cpu(ctl))
			v = 1;
		if (!v || (version == 1 && v == 2) ||
		    strlen(c2 + 1) >= sizeof(path))
			continue;
		version = v;
		snprintf(path, sizeof(path), "%s", c2 + 1);
	}
	if (!version || path[0] != '/')
		return 0;
	if (version == 2) {
		w = snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup%s", root,
			     strcmp(path, "/") == 0 ? "" : path);
		if (w > 0 && (size_t)w < sizeof(dir))
			quota_v2(dir, strlen(root) + strlen("/sys/fs/cgroup"),
				 &q);
	} else {
		for (k = 0; k < sizeof(v1_mounts) / sizeof(v1_mounts[0]); k++) {
			w = snprintf(dir, sizeof(dir), "%s%s%s", root,
				     v1_mounts[k],
				     strcmp(path, "/") == 0 ? "" : path);
			if (w <= 0 || (size_t)w >= sizeof(dir) ||
			    stat(dir, &st) != 0)
				continue;
			quota_v1(dir, strlen(root) + strlen(v1_mounts[k]), &q);
			break;
		}
	}
	if (q == UINT64_MAX)
		return 0;
	return q ? (q < SIZE_MAX ? (size_t)q : SIZE_MAX) : 1;
}

size_t
tg_cpus_usable(void)
{
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof(set), &set) == 0
		     ? CPU_COUNT(&set)
		     : sysconf(_SC_NPROCESSORS_ONLN);
	size_t q = tg_cpus_quota("");

	if (n < 1)
		n = 1;
	return q && q < (size_t)n ? q : (size_t)n;
}
