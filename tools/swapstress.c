// SPDX-License-Identifier: GPL-2.0
/*
 * swapstress - push anonymous memory through swap and check every page.
 *
 * This is the workload behind the 2012 "swap over NFS" stress test: several
 * processes each map a share of an area several times larger than RAM,
 * write every page with a pattern that names the page, and read it back.
 * Because the area does not fit in RAM, most reads come back from swap, so
 * any page that the swap path loses, misplaces or returns stale shows up
 * as a mismatch.
 *
 * Passes (-n, default 2):
 *   pass 1        sequential: write every page, then verify every page
 *   pass 2..n     random page order: verify the previous pattern, then
 *                 rewrite the page with the pattern of this pass
 *   final verify  sequential: verify the pattern of the last pass
 * so a clean run verifies (passes + 1) x pages.  The random order defeats
 * readahead and swap clustering, which a purely sequential test leans on.
 *
 * Page pattern: word 0 names the page (process, pass, page index), word 1
 * is a keyed hash of word 0 and the seed, the other words are derived from
 * word 1.  On a mismatch the tool can therefore tell whether the page came
 * back zero-filled, holds another (or an older) page, or is garbage.
 *
 * The parent forks the workers and watches them; it never touches their
 * memory.  Workers report counters through one small MAP_SHARED page.
 * The "swapstress: key=value" lines on stdout at the end are for scripts;
 * diagnostics on stderr carry no "key=value" words, so a script that
 * parses both streams merged only picks up the summary.
 *
 * Hidden test knobs (environment, for tests/t-swapstress.sh):
 *   SWAPSTRESS_CORRUPT=1   worker 0 flips one byte of one page between the
 *                          write and the verify of pass 1 (expect exactly
 *                          one mismatch)
 *   SWAPSTRESS_SELFKILL=1  worker 0 kills itself with SIGKILL after pass 1
 *                          (expect a reported child death)
 *
 * Exit status: 0 all pages verified and no worker died; 1 mismatch or a
 * worker died; 2 usage or setup error (one line on stderr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Kernel-style names.  u64 is unsigned long long so "%llu" always fits.
 * The attribute macros mirror the kernel's <linux/compiler_attributes.h>
 * (checkpatch asks for them by name).
 */
typedef unsigned long long u64;
typedef unsigned int u32;

#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))
#define __aligned(x)	__attribute__((aligned(x)))

#define MAX_PROCS	4096
#define MAX_PASSES	65535		/* pass number is 16 bits in word 0 */
#define MAX_MIB		1073741824ULL	/* 1 PiB, only to stop overflow */
#define MAX_REPORTED	10		/* mismatch lines per run */
#define PROGRESS_MS	5000		/* the guest console is slow */
#define PROGRESS_STEP	256		/* pages between counter updates */
#define GOLDEN		0x9e3779b97f4a7c15ULL

/*
 * One slot per worker in the shared page.  Only the worker writes its
 * slot; the parent reads it for progress and for the final counts, so a
 * worker killed half way still contributes what it verified.  Workers
 * count locally and publish every PROGRESS_STEP pages, and slots sit on
 * their own cache lines, so the shared page costs next to nothing.
 */
struct slot {
	u64 verified;	/* page verifications done */
	u64 mismatches;	/* page verifications that failed */
	u64 done;		/* progress units done in this stage */
	u64 total;		/* progress units of this stage */
	u32 stage;		/* 0 starting, 1..passes, passes + 1 final */
	u32 passes_done;
	int setup_errno;	/* set before a worker exits with 2 */
} __aligned(64);

struct shared {
	u32 reported;	/* mismatch lines printed, all workers */
	u32 pad;
	struct slot slot[];
};

static struct config {
	long nproc;
	u64 mib;
	unsigned int passes;
	u64 seed;
	bool quiet;
	double tlimit;		/* seconds, 0 = none */
	long pagesize;
	bool corrupt;
	bool selfkill;
} cfg;

static struct shared *sh;

static void __noreturn __printf(1, 2)
setup_error(const char *fmt, ...)
{
	va_list ap;

	fputs("swapstress: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: swapstress [-p NPROC] [-m MIB | -r MULT] [-n PASSES] [-s SEED]\n"
		"                  [-t SECONDS] [-q] [-h]\n"
		"  -p NPROC    worker processes (default: 2 per online CPU)\n"
		"  -m MIB      total anonymous memory over all workers\n"
		"              (default: 3 x MemTotal)\n"
		"  -r MULT     total memory as a multiple of MemTotal (e.g. 2.5)\n"
		"  -n PASSES   passes (default 2): pass 1 sequential write+verify,\n"
		"              later passes random order verify+rewrite, then a\n"
		"              final verify\n"
		"  -s SEED     seed for patterns and page order (default: random)\n"
		"  -t SECONDS  soft limit: stop after the pass running at that time\n"
		"  -q          no progress on stderr\n"
		"  -h          this help\n"
		"Exit: 0 pass, 1 mismatch or worker died, 2 usage/setup error.\n");
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* splitmix64's finaliser: cheap, and every input bit affects every output */
static u64 mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static u64 rng_next(u64 *state)
{
	*state += GOLDEN;
	return mix64(*state);
}

/* ---- page patterns ---- */

static u64 page_tag(unsigned int proc, u64 page, unsigned int pass)
{
	return (u64)proc << 48 | (u64)pass << 32 | page;
}

static u64 tag_check(u64 tag)
{
	return mix64(tag ^ cfg.seed);
}

static void fill_page(u64 *w, unsigned int proc, u64 page,
		      unsigned int pass)
{
	size_t nwords = cfg.pagesize / sizeof(*w);
	u64 tag = page_tag(proc, page, pass);
	u64 base;
	size_t j;

	w[0] = tag;
	w[1] = tag_check(tag);
	base = mix64(w[1] + GOLDEN);
	for (j = 2; j < nwords; j++)
		w[j] = base + j * GOLDEN;
}

/* Say what a wrong page holds, to tell lost, stale and misplaced apart. */
static void describe(const u64 *w, u64 tag, char *buf, size_t len)
{
	size_t nwords = cfg.pagesize / sizeof(*w);
	size_t j;

	for (j = 0; j < nwords && !w[j]; j++)
		;
	if (j == nwords)
		snprintf(buf, len, "page is all zero");
	else if (w[0] == tag && w[1] == tag_check(tag))
		snprintf(buf, len, "header right, data corrupt");
	else if (w[1] == tag_check(w[0]))
		snprintf(buf, len, "page holds proc %u page %u pass %u",
			 (unsigned int)(w[0] >> 48),
			 (unsigned int)(w[0] & 0xffffffffu),
			 (unsigned int)(w[0] >> 32 & 0xffff));
	else
		snprintf(buf, len, "page header unrecognised");
}

/*
 * Check one page against the pattern of @pass.  A wrong page counts once
 * per check and is rewritten with the expected pattern, so one corruption
 * is not counted again by later passes.
 */
static void check_page(struct slot *s, u64 *w, unsigned int proc,
		       u64 page, unsigned int pass, const char *what)
{
	size_t nwords = cfg.pagesize / sizeof(*w);
	u64 tag = page_tag(proc, page, pass);
	u64 chk = tag_check(tag);
	u64 base = mix64(chk + GOLDEN);
	u64 expect;
	size_t j = 0;
	char desc[80];

	if (w[0] == tag && w[1] == chk) {
		for (j = 2; j < nwords; j++)
			if (w[j] != base + j * GOLDEN)
				break;
	}
	s->verified++;
	if (j == nwords)
		return;

	s->mismatches++;
	/* publish at once: a worker killed later must still fail the run */
	__atomic_store_n(&sh->slot[proc].mismatches, s->mismatches,
			 __ATOMIC_RELAXED);
	if (__atomic_fetch_add(&sh->reported, 1, __ATOMIC_RELAXED) <
	    MAX_REPORTED) {
		if (w[0] != tag)
			j = 0;
		else if (w[1] != chk)
			j = 1;
		expect = j == 0 ? tag : j == 1 ? chk : base + j * GOLDEN;
		describe(w, tag, desc, sizeof(desc));
		fprintf(stderr,
			"swapstress: MISMATCH proc %u page %llu pass %u (%s) word %zu: expected 0x%016llx got 0x%016llx; %s\n",
			proc, page, pass, what, j, expect, w[j], desc);
	}
	fill_page(w, proc, page, pass);
}

/* ---- worker ---- */

static void stage_begin(struct slot *s, unsigned int stage, u64 total)
{
	__atomic_store_n(&s->done, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&s->stage, stage, __ATOMIC_RELAXED);
}

/* @me is the worker's private copy, @s its slot in the shared page */
static void publish(struct slot *s, const struct slot *me, u64 done)
{
	__atomic_store_n(&s->verified, me->verified, __ATOMIC_RELAXED);
	__atomic_store_n(&s->done, done, __ATOMIC_RELAXED);
}

static void progress(struct slot *s, const struct slot *me, u64 done)
{
	if (!(done % PROGRESS_STEP))
		publish(s, me, done);
}

/* Fisher-Yates shuffle, reproducible from (seed, proc, pass). */
static void shuffle(u32 *perm, u64 n, unsigned int proc,
		    unsigned int pass)
{
	u64 state = mix64(cfg.seed ^ page_tag(proc, 0, pass) ^ GOLDEN);
	u64 i, k;
	u32 t;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		/* multiply-shift: bias is irrelevant here */
		k = (u64)(((__uint128_t)rng_next(&state) * (i + 1)) >> 64);
		t = perm[i];
		perm[i] = perm[k];
		perm[k] = t;
	}
}

static int worker(unsigned int proc, u64 npages, double t0)
{
	struct slot *s = &sh->slot[proc];
	struct slot me = { 0 };
	size_t ps = cfg.pagesize;
	size_t words = ps / sizeof(u64);
	u32 *perm = NULL;
	unsigned int pass, last;
	u64 *mem;
	u64 p, i;

	mem = mmap(NULL, npages * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (cfg.passes > 1 && mem != MAP_FAILED)
		perm = mmap(NULL, npages * sizeof(*perm),
			    PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || perm == MAP_FAILED) {
		/* the parent prints one line for all workers */
		s->setup_errno = errno;
		return 2;
	}

	/* pass 1: write everything, then read everything back */
	stage_begin(s, 1, 2 * npages);
	for (p = 0; p < npages; p++) {
		fill_page(mem + p * words, proc, p, 1);
		progress(s, &me, p);
	}
	if (cfg.corrupt && proc == 0)
		((unsigned char *)mem)[npages / 2 * ps + ps / 2] ^= 0x5a;
	for (p = 0; p < npages; p++) {
		check_page(&me, mem + p * words, proc, p, 1, "seq verify");
		progress(s, &me, npages + p);
	}
	last = 1;
	publish(s, &me, 2 * npages);
	__atomic_store_n(&s->passes_done, 1, __ATOMIC_RELAXED);
	if (cfg.selfkill && proc == 0)
		raise(SIGKILL);

	/* passes 2..n: random order, verify old pattern, write new one */
	for (pass = 2; pass <= cfg.passes; pass++) {
		if (cfg.tlimit > 0 && now_ms() - t0 >= cfg.tlimit * 1e3)
			break;
		stage_begin(s, pass, npages);
		shuffle(perm, npages, proc, pass);
		for (i = 0; i < npages; i++) {
			p = perm[i];
			check_page(&me, mem + p * words, proc, p, last,
				   "random verify");
			fill_page(mem + p * words, proc, p, pass);
			progress(s, &me, i);
		}
		last = pass;
		publish(s, &me, npages);
		__atomic_store_n(&s->passes_done, pass, __ATOMIC_RELAXED);
	}

	stage_begin(s, cfg.passes + 1, npages);
	for (p = 0; p < npages; p++) {
		check_page(&me, mem + p * words, proc, p, last, "final verify");
		progress(s, &me, p);
	}
	publish(s, &me, npages);
	return 0;
}

/* ---- parent ---- */

static u64 meminfo_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[128];

	if (!f)
		setup_error("cannot open /proc/meminfo: %s (use -m)",
			    strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			break;
	fclose(f);
	if (!kib)
		setup_error("no MemTotal in /proc/meminfo (use -m)");
	return kib;
}

/* pswpin/pswpout exist only with CONFIG_VM_EVENT_COUNTERS */
static bool read_vmstat(u64 *in, u64 *out)
{
	FILE *f = fopen("/proc/vmstat", "r");
	unsigned long long v;
	int found = 0;
	char line[128];

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "pswpin %llu", &v) == 1) {
			*in = v;
			found |= 1;
		} else if (sscanf(line, "pswpout %llu", &v) == 1) {
			*out = v;
			found |= 2;
		}
	}
	fclose(f);
	return found == 3;
}

static unsigned long long parse_ull(const char *arg, char opt,
				    unsigned long long min,
				    unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-' || v < min || v > max)
		setup_error("-%c: expected an integer from %llu to %llu, got '%s'",
			    opt, min, max, arg);
	return v;
}

static double parse_double(const char *arg, char opt)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 1e9)
		setup_error("-%c: expected a positive number, got '%s'",
			    opt, arg);
	return v;
}

static void parse_options(int argc, char **argv)
{
	const char *env;
	double mult = 0;
	bool have_seed = false;
	long ncpu;
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, ":p:m:r:n:s:t:qh")) != -1) {
		switch (c) {
		case 'p':
			cfg.nproc = parse_ull(optarg, c, 1, MAX_PROCS);
			break;
		case 'm':
			cfg.mib = parse_ull(optarg, c, 1, MAX_MIB);
			break;
		case 'r':
			mult = parse_double(optarg, c);
			break;
		case 'n':
			cfg.passes = parse_ull(optarg, c, 1, MAX_PASSES);
			break;
		case 's':
			cfg.seed = parse_ull(optarg, c, 0, ULLONG_MAX);
			have_seed = true;
			break;
		case 't':
			cfg.tlimit = parse_double(optarg, c);
			break;
		case 'q':
			cfg.quiet = true;
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		case ':':
			setup_error("option -%c needs an argument (try -h)",
				    optopt);
		default:
			setup_error("unknown option -%c (try -h)", optopt);
		}
	}
	if (optind < argc)
		setup_error("unexpected argument '%s' (try -h)", argv[optind]);
	if (cfg.mib && mult > 0)
		setup_error("-m and -r are alternatives, give one");

	cfg.pagesize = sysconf(_SC_PAGESIZE);
	if (cfg.pagesize < 64 || cfg.pagesize % sizeof(u64))
		setup_error("odd page size %ld", cfg.pagesize);
	if (!cfg.nproc) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		cfg.nproc = ncpu > 0 ? 2 * ncpu : 2;
		if (cfg.nproc > MAX_PROCS)
			cfg.nproc = MAX_PROCS;
	}
	if (!cfg.mib) {
		cfg.mib = (u64)(meminfo_kib() * (mult > 0 ? mult : 3.0)
				     / 1024);
		if (!cfg.mib || cfg.mib > MAX_MIB)
			setup_error("-r %g gives %llu MiB, out of range",
				    mult, cfg.mib);
	}
	if (!cfg.passes)
		cfg.passes = 2;
	if (!have_seed)
		cfg.seed = mix64((u64)time(NULL) << 20 ^ getpid());

	env = getenv("SWAPSTRESS_CORRUPT");
	cfg.corrupt = env && *env && strcmp(env, "0");
	env = getenv("SWAPSTRESS_SELFKILL");
	cfg.selfkill = env && *env && strcmp(env, "0");
}

static const char *stage_name(unsigned int stage)
{
	if (stage == 1)
		return "seq write+verify";
	if (stage <= cfg.passes)
		return "random verify+rewrite";
	return "final verify";
}

/*
 * Progress of the slowest worker's stage: workers already past it count
 * as complete, so the figure only goes up within a stage.
 */
static void print_progress(const bool *running, double t0)
{
	unsigned int stage, min = UINT_MAX;
	double frac = 0, tot;
	long i;

	for (i = 0; i < cfg.nproc; i++) {
		stage = __atomic_load_n(&sh->slot[i].stage, __ATOMIC_RELAXED);
		if (running[i] && stage < min)
			min = stage;
	}
	if (min == UINT_MAX)
		return;
	for (i = 0; i < cfg.nproc; i++) {
		struct slot *s = &sh->slot[i];

		stage = __atomic_load_n(&s->stage, __ATOMIC_RELAXED);
		tot = __atomic_load_n(&s->total, __ATOMIC_RELAXED);
		if (!running[i] || stage > min)
			frac += 1;
		else if (stage == min && tot > 0)
			frac += __atomic_load_n(&s->done, __ATOMIC_RELAXED) /
				tot;
	}
	frac = 100 * frac / cfg.nproc;
	if (min == 0)
		fprintf(stderr, "swapstress: starting (%.0f s)\n",
			(now_ms() - t0) / 1e3);
	else if (min <= cfg.passes)
		fprintf(stderr, "swapstress: pass %u/%u %s: %.0f%% (%.0f s)\n",
			min, cfg.passes, stage_name(min), frac,
			(now_ms() - t0) / 1e3);
	else
		fprintf(stderr, "swapstress: %s: %.0f%% (%.0f s)\n",
			stage_name(min), frac, (now_ms() - t0) / 1e3);
}

static void kill_all(const pid_t *pids, const bool *running)
{
	long i;

	for (i = 0; i < cfg.nproc; i++)
		if (running[i])
			kill(pids[i], SIGKILL);
}

int main(int argc, char **argv)
{
	u64 total_pages, npages, verified = 0, mismatches = 0;
	u64 in0 = 0, out0 = 0, in1 = 0, out1 = 0, elapsed;
	u64 kib_per_page, expect_verified = 0;
	struct timespec tick = { .tv_sec = 1 };
	bool have_vm, *running, setup_failed = false;
	unsigned int min_passes = UINT_MAX;
	long i, nrunning = 0, deaths = 0;
	double t0, last_progress;
	size_t shlen;
	sigset_t chld;
	pid_t pid, parent, *pids;
	int status, rc = 0;

	parse_options(argc, argv);

	total_pages = cfg.mib * (1024 * 1024 / cfg.pagesize);
	if (total_pages < (u64)cfg.nproc)
		setup_error("%llu MiB is less than one page per process",
			    cfg.mib);
	if (total_pages / cfg.nproc + 1 > UINT_MAX)
		setup_error("more than 2^32 pages per process: use more -p");

	shlen = sizeof(*sh) + cfg.nproc * sizeof(sh->slot[0]);
	sh = mmap(NULL, shlen, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(cfg.nproc, sizeof(*pids));
	running = calloc(cfg.nproc, sizeof(*running));
	if (sh == MAP_FAILED || !pids || !running)
		setup_error("cannot allocate bookkeeping: %s", strerror(errno));
	/* Keep the counters resident; failing (no privilege) is harmless. */
	mlock(sh, shlen);

	/* SIGCHLD is taken with sigtimedwait(), which also paces progress. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	if (!cfg.quiet)
		fprintf(stderr,
			"swapstress: %ld procs, %llu MiB (%llu pages), passes %u, seed %llu\n",
			cfg.nproc, cfg.mib, total_pages, cfg.passes, cfg.seed);

	have_vm = read_vmstat(&in0, &out0);
	fflush(NULL);
	parent = getpid();
	t0 = now_ms();
	last_progress = t0;
	for (i = 0; i < cfg.nproc; i++) {
		/* spread the remainder: the first workers get one page more */
		npages = total_pages / cfg.nproc +
			 ((u64)i < total_pages % cfg.nproc);
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "swapstress: fork: %s\n",
				strerror(errno));
			setup_failed = true;
			kill_all(pids, running);
			break;
		}
		if (pid == 0) {
			/* a worker must not outlive a killed parent */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(2);
			sigprocmask(SIG_UNBLOCK, &chld, NULL);
			_exit(worker(i, npages, t0));
		}
		pids[i] = pid;
		running[i] = true;
		nrunning++;
	}

	while (nrunning > 0) {
		sigtimedwait(&chld, NULL, &tick);
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (i = 0; i < cfg.nproc && pids[i] != pid; i++)
				;
			if (i == cfg.nproc)
				continue;
			running[i] = false;
			nrunning--;
			if (setup_failed) {
				/* killed by us below: not news */
			} else if (WIFSIGNALED(status)) {
				fprintf(stderr,
					"swapstress: proc %ld (pid %d) killed by signal %d (%s)\n",
					i, (int)pid, WTERMSIG(status),
					strsignal(WTERMSIG(status)));
				deaths++;
			} else if (WEXITSTATUS(status) == 2) {
				npages = total_pages / cfg.nproc;
				fprintf(stderr,
					"swapstress: proc %ld: cannot map %llu MiB of anonymous memory: %s (more than RAM + swap?)\n",
					i, npages * cfg.pagesize >> 20,
					strerror(sh->slot[i].setup_errno));
				setup_failed = true;
				kill_all(pids, running);
			} else if (WEXITSTATUS(status)) {
				fprintf(stderr,
					"swapstress: proc %ld (pid %d) exited with status %d\n",
					i, (int)pid, WEXITSTATUS(status));
				deaths++;
			}
		}
		if (!cfg.quiet && nrunning > 0 &&
		    now_ms() - last_progress >= PROGRESS_MS) {
			print_progress(running, t0);
			last_progress = now_ms();
		}
	}
	elapsed = (u64)(now_ms() - t0);
	if (setup_failed) {
		rc = 2;
		goto out;
	}
	have_vm = have_vm && read_vmstat(&in1, &out1);

	for (i = 0; i < cfg.nproc; i++) {
		verified += sh->slot[i].verified;
		mismatches += sh->slot[i].mismatches;
		if (sh->slot[i].passes_done < min_passes)
			min_passes = sh->slot[i].passes_done;
		npages = total_pages / cfg.nproc +
			 ((u64)i < total_pages % cfg.nproc);
		expect_verified += (sh->slot[i].passes_done + 1) * npages;
	}
	if (!cfg.quiet && cfg.tlimit > 0 && min_passes < cfg.passes)
		fprintf(stderr, "swapstress: time limit: stopped after pass %u of %u\n",
			min_passes, cfg.passes);
	/* belt and braces: a worker that skipped pages must not pass */
	if (!deaths && verified != expect_verified) {
		fprintf(stderr,
			"swapstress: verified %llu pages, expected %llu\n",
			verified, expect_verified);
		deaths++;
	}

	kib_per_page = cfg.pagesize / 1024;
	if (!elapsed)
		elapsed = 1;
	printf("swapstress: procs=%ld mib=%llu passes=%u\n",
	       cfg.nproc, cfg.mib, cfg.passes);
	printf("swapstress: elapsed_ms=%llu\n", elapsed);
	printf("swapstress: pages_verified=%llu\n", verified);
	printf("swapstress: mismatches=%llu\n", mismatches);
	if (have_vm) {
		printf("swapstress: pswpin=%llu pswpout=%llu\n",
		       in1 - in0, out1 - out0);
		printf("swapstress: swapout_kib_s=%llu swapin_kib_s=%llu\n",
		       (out1 - out0) * kib_per_page * 1000 / elapsed,
		       (in1 - in0) * kib_per_page * 1000 / elapsed);
	} else {
		printf("swapstress: pswpin=na pswpout=na\n");
		printf("swapstress: swapout_kib_s=na swapin_kib_s=na\n");
	}
	if (mismatches || deaths) {
		printf("swapstress: result=fail\n");
		fprintf(stderr,
			"swapstress: seed was %llu (-s repeats patterns and page order)\n",
			cfg.seed);
		rc = 1;
	} else {
		printf("swapstress: result=pass\n");
	}
out:
	free(pids);
	free(running);
	return rc;
}
