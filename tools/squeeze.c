// SPDX-License-Identifier: GPL-2.0
/*
 * squeeze: raise vm.min_free_kbytes to KB for HOLD seconds in every
 * PERIOD, until SIGTERM or SIGINT; then put the old value back and print
 * "squeezes=N".
 *
 *   squeeze KB PERIOD HOLD
 *
 * While the value is raised, free memory is below what a GFP_ATOMIC
 * allocation may leave, so receive buffers that may use the reserves come
 * from them and their skbs are pfmemalloc: the state a swap client reaches
 * on its own only now and then.
 *
 * Why a program and not a shell loop: during a squeeze most allocations
 * wait in reclaim, and reclaim waits for swap-out over the network.  A
 * shell that forks `sleep` then sleeps in reclaim itself, the value never
 * comes down, and the guest stays squeezed for good (seen in t0610).  This
 * program locks itself in memory and needs only a descriptor opened in
 * advance and nanosleep() to put the value back.
 *
 * SQUEEZE_KNOB=FILE writes FILE instead of the sysctl: tests/t-squeeze.sh
 * uses it to check the tool on the host, whose sysctl it must not touch.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define KNOB "/proc/sys/vm/min_free_kbytes"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Sleep s seconds; an early return on a signal is fine: stop is set. */
static void nap(long s)
{
	struct timespec t = { .tv_sec = s };

	while (!stop && nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

static int put(int fd, const char *val)
{
	size_t n = strlen(val);

	return pwrite(fd, val, n, 0) == (ssize_t)n ? 0 : -1;
}

static long arg(const char *s, long min)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min) {
		fprintf(stderr, "squeeze: '%s' is not a number >= %ld\n", s, min);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *knob = getenv("SQUEEZE_KNOB");
	char old[32], high[32];
	long period, hold, n = 0;
	struct sigaction sa;
	ssize_t len;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: squeeze KB PERIOD HOLD\n");
		return 2;
	}
	snprintf(high, sizeof(high), "%ld\n", arg(argv[1], 1));
	period = arg(argv[2], 1);
	hold = arg(argv[3], 1);
	if (hold >= period) {
		fprintf(stderr, "squeeze: HOLD must be shorter than PERIOD\n");
		return 2;
	}
	if (!knob)
		knob = KNOB;
	fd = open(knob, O_RDWR);
	len = fd < 0 ? -1 : pread(fd, old, sizeof(old) - 1, 0);
	if (len <= 0) {
		fprintf(stderr, "squeeze: cannot read %s: %s\n", knob,
			len == 0 ? "empty" : strerror(errno));
		return 1;
	}
	old[len] = '\0';
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		perror("squeeze: mlockall");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	for (;;) {
		nap(period - hold);
		if (stop)
			break;
		if (put(fd, high) < 0) {
			fprintf(stderr, "squeeze: cannot raise %s: %s\n", knob,
				strerror(errno));
			break;
		}
		n++;
		nap(hold);
		if (put(fd, old) < 0)
			break;
	}
	if (put(fd, old) < 0) {
		fprintf(stderr, "squeeze: cannot restore %s: %s\n", knob,
			strerror(errno));
		return 1;
	}
	printf("squeezes=%ld\n", n);
	return 0;
}
