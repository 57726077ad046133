/* SPDX-License-Identifier: MIT */
/* The world's worker threads (thread_pool.h): range jobs claimed with atomics, a
 * spin-then-sleep hand-off between jobs, and hwloc pinning. The only file that includes
 * <hwloc.h>. */
#include "lib/core/thread_pool.h"

#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/core/alloc.h"

/* How long a worker polls for the next job, and the caller for the end of one, before it
 * sleeps on the condition variable. Longer than the serial stretches between a frame's
 * parallel steps (applying the broad phase's pair changes takes about 0.3 ms on dense10k),
 * so the workers are awake for the next step instead of paying a futex wake-up; short
 * enough that between frames an idle pool burns half a millisecond of each core, not the
 * frame. Measured on dense10k with 2 workers: polling 4096 pauses (68 us on this machine)
 * let the worker fall asleep inside frames, 6.72 to 8.13 ms per frame against 6.55 to 6.74
 * with 32768 pauses (runs interleaved). A time rather than a count of pauses, since a pause
 * costs from about 10 to 140 cycles depending on the processor; the clock is read every
 * COL_POOL_SPIN_CHECK polls. */
#define COL_POOL_SPIN_NS 500000u
#define COL_POOL_SPIN_CHECK 64u
/* A gap this long between two clock reads of a polling loop means the thread was
 * descheduled (COL_POOL_SPIN_CHECK pauses take 1 to 10 microseconds). */
#define COL_POOL_PREEMPT_NS 50000u
/* Stall detection and back-off of the caller (note_stall). */
#define COL_POOL_STALL_NS 200000u
#define COL_POOL_SOLO_MIN_NS 2000000u
#define COL_POOL_SOLO_MAX_NS 1000000000u
/* Pauses the caller polls for the end of a job before it yields its core instead. */
#define COL_POOL_WAIT_POLLS 4096u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* ---- range jobs ---- */

void col_range_job_init(col_range_job *job, col_range_fn *fn, void *ctx, int count, int block)
{
    job->fn = fn;
    job->ctx = ctx;
    job->count = count;
    job->block = block > 0 ? block : 1;
    fegetenv(&job->env);
    atomic_init(&job->next, 0);
}

void col_range_job_run(col_range_job *job, int worker_index)
{
    /* Cheap exit for a late or repeated run: do not touch the FP environment. */
    if (atomic_load_explicit(&job->next, memory_order_relaxed) >= job->count) return;
    fenv_t saved;
    fegetenv(&saved);
    fesetenv(&job->env);
    for (;;) {
        /* Relaxed is enough: the claim only has to be unique; the items' data were
         * published before the job was handed out, and results are published by the
         * join (thread pool) or finish_task (app's task system). */
        int begin = atomic_fetch_add_explicit(&job->next, job->block, memory_order_relaxed);
        if (begin >= job->count) break;
        int end = job->count - begin > job->block ? begin + job->block : job->count;
        job->fn(begin, end, worker_index, job->ctx);
    }
    fesetenv(&saved);
}

/* ---- topology ---- */

static hwloc_topology_t load_topology(void)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) return NULL;
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return NULL;
    }
    return t;
}

static int clamp_workers(long n)
{
    return n < 1 ? 1 : n > COL_MAX_WORKERS ? COL_MAX_WORKERS : (int)n;
}

/* The objects workers are bound to: physical cores, or processing units on a machine
 * where hwloc reports no cores. hwloc's logical indices run depth-first through the
 * cache tree, so consecutive cores share the deepest cache they can. */
static hwloc_obj_type_t pin_type(hwloc_topology_t t)
{
    return hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

/* Physical cores of t (NULL: no hwloc), else online CPUs. */
static int count_cores(hwloc_topology_t t)
{
    int n = t != NULL ? hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) : 0;
    if (n <= 0) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return clamp_workers(n);
}

int col_thread_pool_default_workers(void)
{
    hwloc_topology_t t = load_topology();
    int n = count_cores(t);
    if (t != NULL) hwloc_topology_destroy(t);
    return n;
}

/* ---- the pool ---- */

/* The pool's job, claimed with a tagged cursor (docs/threads.md, "A busy core"). The
 * caller never waits for a worker that has not started: it claims blocks like any
 * worker, then waits only until `done` covers every item, i.e. for the blocks a worker
 * actually claimed. A worker that wakes up late (its core was busy with another process)
 * may still be reading the description of a job that has ended and been replaced; the
 * cursor word carries the job's epoch in its high half, so such a worker's claim (a
 * compare-and-swap on a word whose epoch has moved on) fails and it has touched nothing.
 * The description is written only after the cursor moved to the new epoch (with a release
 * fence between, paired with the worker's acquire fence before its claim), so a worker
 * that read any part of a newer description cannot claim with the older epoch: a seqlock
 * whose second read is the claim itself. Fields are relaxed atomics so that a stale read
 * is no data race. */
#define COL_POOL_FENV_WORDS ((sizeof(fenv_t) + sizeof(unsigned) - 1) / sizeof(unsigned))

typedef struct col_pool_job {
    _Atomic(col_range_fn *) fn;
    _Atomic(void *) ctx;
    atomic_int count;
    atomic_int block;
    atomic_uint env[COL_POOL_FENV_WORDS]; /* the caller's fenv_t, word by word */
    atomic_uint_least64_t cursor;         /* epoch << 32 | first unclaimed item */
    atomic_int done;                      /* items finished in this epoch */
} col_pool_job;

typedef struct col_pool_thread {
    struct col_thread_pool *pool;
    int index;               /* worker index, >= 1 */
    hwloc_bitmap_t cpuset;   /* where to bind, or NULL; freed by the creator */
} col_pool_thread;

struct col_thread_pool {
    col_alloc *alloc;
    int workers;
    int started;             /* threads running */
    pthread_t *threads;      /* [workers - 1] */
    col_pool_thread *args;   /* [workers - 1] */
    hwloc_topology_t topo;   /* only while the threads bind themselves */

    pthread_mutex_t mu;
    pthread_cond_t wake;     /* a new job was posted (or stop) */
    pthread_cond_t done;     /* a thread became ready */
    int ready;               /* threads past their binding (under mu) */
    atomic_int bound;        /* threads whose binding succeeded */

    /* The hand-off: the caller fills job, then bumps epoch (seq_cst) and wakes sleepers
     * only if there are any (a worker counts itself in `sleepers`, seq_cst, before its
     * last look at epoch: one of the two sees the other). */
    col_pool_job job;
    /* The caller's stall back-off (col_thread_pool_run), touched by the caller only. */
    uint64_t solo_until;     /* until then jobs run on the caller alone (ns) */
    uint64_t last_stall;     /* when the last stall was seen (ns) */
    int stall_level;         /* the back-off is COL_POOL_SOLO_MIN_NS << stall_level */
    int stalls;              /* stalls seen, for tests and the bench */
    atomic_uint epoch;
    atomic_int sleepers;
    atomic_bool stop;
    _Atomic(col_pool_hook_fn *) hook; /* tests only (col_thread_pool_set_hook) */
    void *_Atomic hook_ctx;
};

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A polling budget: false once COL_POOL_SPIN_NS have passed since its first clock read,
 * or at once when the clock jumped between two reads: the thread was descheduled, so
 * its core is wanted by another thread (the app's, ours, or another process's) and
 * polling on would take time from it. */
typedef struct spin_budget {
    unsigned polls;
    uint64_t start, last;
} spin_budget;

static bool spin_on(spin_budget *b)
{
    cpu_relax();
    if (++b->polls % COL_POOL_SPIN_CHECK != 0) return true;
    uint64_t t = mono_ns();
    if (b->start == 0) b->start = b->last = t;
    bool preempted = t - b->last > COL_POOL_PREEMPT_NS;
    b->last = t;
    return !preempted && t - b->start < COL_POOL_SPIN_NS;
}

static unsigned wait_epoch(col_thread_pool *pool, unsigned seen)
{
    unsigned e;
    spin_budget b = {0, 0, 0};
    do {
        e = atomic_load_explicit(&pool->epoch, memory_order_acquire);
        if (e != seen) return e;
    } while (spin_on(&b));
    pthread_mutex_lock(&pool->mu);
    atomic_fetch_add(&pool->sleepers, 1);
    while ((e = atomic_load(&pool->epoch)) == seen) pthread_cond_wait(&pool->wake, &pool->mu);
    atomic_fetch_sub(&pool->sleepers, 1);
    pthread_mutex_unlock(&pool->mu);
    return e;
}

/* Claims and runs blocks of the job of epoch e as worker_index until none is left or the
 * job is no longer epoch e's. */
static void call_hook(col_thread_pool *pool, int worker_index, col_pool_hook_point point)
{
    col_pool_hook_fn *hook = atomic_load_explicit(&pool->hook, memory_order_acquire);
    if (hook != NULL && worker_index > 0) hook(worker_index, point, atomic_load_explicit(&pool->hook_ctx, memory_order_relaxed));
}

static void run_pool_job(col_thread_pool *pool, unsigned e, int worker_index)
{
    col_pool_job *job = &pool->job;
    call_hook(pool, worker_index, COL_POOL_HOOK_WOKE);
    uint64_t c = atomic_load_explicit(&job->cursor, memory_order_acquire);
    if ((unsigned)(c >> 32) != e) return;
    col_range_fn *fn = atomic_load_explicit(&job->fn, memory_order_relaxed);
    void *ctx = atomic_load_explicit(&job->ctx, memory_order_relaxed);
    int count = atomic_load_explicit(&job->count, memory_order_relaxed);
    int block = atomic_load_explicit(&job->block, memory_order_relaxed);
    unsigned envw[COL_POOL_FENV_WORDS];
    for (size_t k = 0; k < COL_POOL_FENV_WORDS; k++) envw[k] = atomic_load_explicit(&job->env[k], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    call_hook(pool, worker_index, COL_POOL_HOOK_READ);
    if ((int)(uint32_t)c >= count) return;
    fenv_t saved, env;
    memcpy(&env, envw, sizeof env);
    fegetenv(&saved);
    fesetenv(&env);
    for (;;) {
        int begin = (int)(uint32_t)c;
        if ((unsigned)(c >> 32) != e || begin >= count) break;
        int end = count - begin > block ? begin + block : count;
        if (!atomic_compare_exchange_weak_explicit(&job->cursor, &c, c + (uint64_t)(end - begin), memory_order_acq_rel,
                                                   memory_order_acquire))
            continue; /* c now holds the current word */
        fn(begin, end, worker_index, ctx);
        atomic_fetch_add_explicit(&job->done, end - begin, memory_order_release);
        c = atomic_load_explicit(&job->cursor, memory_order_acquire);
    }
    fesetenv(&saved);
}

static void *worker_main(void *arg)
{
    col_pool_thread *self = arg;
    col_thread_pool *pool = self->pool;
    if (self->cpuset != NULL && hwloc_set_cpubind(pool->topo, self->cpuset, HWLOC_CPUBIND_THREAD) == 0)
        atomic_fetch_add_explicit(&pool->bound, 1, memory_order_relaxed);
    pthread_mutex_lock(&pool->mu);
    pool->ready++;
    pthread_cond_broadcast(&pool->done);
    pthread_mutex_unlock(&pool->mu);

    unsigned seen = 0;
    for (;;) {
        seen = wait_epoch(pool, seen);
        if (atomic_load_explicit(&pool->stop, memory_order_acquire)) break;
        run_pool_job(pool, seen, self->index);
    }
    return NULL;
}

/* Wakes the threads asleep on the condition variable, if any. */
static void wake_sleepers(col_thread_pool *pool)
{
    if (atomic_load(&pool->sleepers) == 0) return;
    pthread_mutex_lock(&pool->mu);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mu);
}

static void join_all(col_thread_pool *pool)
{
    if (pool->started > 0) {
        atomic_store_explicit(&pool->stop, true, memory_order_release);
        pthread_mutex_lock(&pool->mu);
        atomic_fetch_add(&pool->epoch, 1);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mu);
        for (int k = 0; k < pool->started; k++) pthread_join(pool->threads[k], NULL);
    }
    pool->started = 0;
}

static void free_pool(col_thread_pool *pool)
{
    col_alloc *a = pool->alloc;
    int n = pool->workers - 1;
    for (int k = 0; k < n; k++)
        if (pool->args != NULL && pool->args[k].cpuset != NULL) hwloc_bitmap_free(pool->args[k].cpuset);
    if (pool->topo != NULL) hwloc_topology_destroy(pool->topo);
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mu);
    col_free_bytes(a, pool->threads, (size_t)n * sizeof(pthread_t));
    col_free_bytes(a, pool->args, (size_t)n * sizeof(col_pool_thread));
    col_free_bytes(a, pool, sizeof *pool);
}

/* The CPU set worker k (>= 1) is bound to, or NULL to leave it unbound. */
static hwloc_bitmap_t plan_cpuset(hwloc_topology_t t, int k, col_thread_pinning pinning, const int *cpus, int cpu_count)
{
    if (t == NULL) return NULL;
    if (pinning == COL_PIN_CPUS) {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set != NULL && hwloc_bitmap_only(set, (unsigned)cpus[k % cpu_count]) != 0) {
            hwloc_bitmap_free(set);
            set = NULL;
        }
        return set;
    }
    hwloc_obj_type_t type = pin_type(t);
    int n = hwloc_get_nbobjs_by_type(t, type);
    if (n <= 0) return NULL;
    hwloc_obj_t o = hwloc_get_obj_by_type(t, type, (unsigned)(k % n));
    return o != NULL && o->cpuset != NULL ? hwloc_bitmap_dup(o->cpuset) : NULL;
}

col_status col_thread_pool_create(col_alloc *alloc, int workers, col_thread_pinning pinning, const int *cpus,
                                  int cpu_count, col_thread_pool **out)
{
    *out = NULL;
    if (workers < 0 || workers > COL_MAX_WORKERS) return COL_ERR_INVALID_ARGUMENT;
    if (pinning == COL_PIN_CPUS && (cpus == NULL || cpu_count <= 0)) return COL_ERR_INVALID_ARGUMENT;
    if (workers == 0 && pinning == COL_PIN_CPUS) workers = clamp_workers(cpu_count);
    /* One topology load (milliseconds: it reads sysfs) serves both the count and the
     * binding plan. No topology: the pool still works, unpinned (graceful fallback). */
    hwloc_topology_t topo = NULL;
    if (workers == 0 || (workers > 1 && pinning != COL_PIN_NONE)) topo = load_topology();
    if (workers == 0) workers = count_cores(topo);
    if (workers == 1) {
        if (topo != NULL) hwloc_topology_destroy(topo);
        return COL_OK; /* one worker: the calling thread, no pool */
    }
    col_thread_pool *pool = col_alloc_zeroed(alloc, 1, sizeof *pool);
    if (pool == NULL) {
        if (topo != NULL) hwloc_topology_destroy(topo);
        return COL_ERR_OUT_OF_MEMORY;
    }
    pool->topo = topo;
    if (pinning == COL_PIN_NONE && topo != NULL) {
        hwloc_topology_destroy(topo);
        pool->topo = NULL;
    }
    int n = workers - 1;
    pool->alloc = alloc;
    pool->workers = workers;
    pool->threads = col_alloc_zeroed(alloc, (size_t)n, sizeof(pthread_t));
    pool->args = col_alloc_zeroed(alloc, (size_t)n, sizeof(col_pool_thread));
    atomic_init(&pool->bound, 0);
    atomic_init(&pool->epoch, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->hook, NULL);
    atomic_init(&pool->hook_ctx, NULL);
    atomic_init(&pool->stop, false);
    atomic_init(&pool->job.cursor, 0);
    atomic_init(&pool->job.done, 0);
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    if (pool->threads == NULL || pool->args == NULL) {
        free_pool(pool);
        return COL_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; k < n; k++) {
        pool->args[k].pool = pool;
        pool->args[k].index = k + 1;
        pool->args[k].cpuset = plan_cpuset(pool->topo, k + 1, pinning, cpus, cpu_count);
    }
    col_status st = COL_OK;
    for (int k = 0; k < n; k++) {
        if (pthread_create(&pool->threads[k], NULL, worker_main, &pool->args[k]) != 0) {
            st = COL_ERR_OUT_OF_MEMORY; /* EAGAIN: no resources for another thread */
            break;
        }
        pool->started++;
    }
    /* The topology must outlive the threads' binding calls. */
    pthread_mutex_lock(&pool->mu);
    while (pool->ready < pool->started) pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    if (pool->topo != NULL) {
        hwloc_topology_destroy(pool->topo);
        pool->topo = NULL;
    }
    if (st != COL_OK) {
        join_all(pool);
        free_pool(pool);
        return st;
    }
    *out = pool;
    return COL_OK;
}

void col_thread_pool_destroy(col_thread_pool *pool)
{
    if (pool == NULL) return;
    join_all(pool);
    free_pool(pool);
}

int col_thread_pool_worker_count(const col_thread_pool *pool) { return pool != NULL ? pool->workers : 1; }

void col_thread_pool_set_hook(col_thread_pool *pool, col_pool_hook_fn *hook, void *ctx)
{
    atomic_store_explicit(&pool->hook_ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&pool->hook, hook, memory_order_release);
}

int col_thread_pool_stall_count(const col_thread_pool *pool) { return pool != NULL ? pool->stalls : 0; }

int col_thread_pool_bound_count(const col_thread_pool *pool)
{
    return pool != NULL ? atomic_load_explicit(&((col_thread_pool *)pool)->bound, memory_order_relaxed) : 0;
}

/* A stall: the caller waited for a worker's claimed block longer than it worked on the
 * job itself, and longer than COL_POOL_STALL_NS: that worker was descheduled mid-block
 * (its core is busy elsewhere, e.g. with the app's renderer or another process), and the
 * caller can only wait for it. Jobs then run on the caller alone for a while, doubling
 * while the stalls keep coming back, so that a busy core costs at most one stall per
 * COL_POOL_SOLO_MAX_NS; on an idle machine there are none and nothing changes. */
static void note_stall(col_thread_pool *pool, uint64_t now)
{
    uint64_t period = (uint64_t)COL_POOL_SOLO_MIN_NS << pool->stall_level;
    if (pool->stalls > 0 && now - pool->last_stall < 2 * period + COL_POOL_SOLO_MIN_NS) {
        if (period < COL_POOL_SOLO_MAX_NS) {
            pool->stall_level++;
            period *= 2;
        }
    } else {
        pool->stall_level = 0;
        period = COL_POOL_SOLO_MIN_NS;
    }
    pool->stalls++;
    pool->last_stall = now;
    pool->solo_until = now + period;
}

void col_thread_pool_run(col_thread_pool *pool, col_range_fn *fn, void *ctx, int count, int block)
{
    if (count <= 0) return;
    if (block < 1) block = 1;
    uint64_t started = pool->stalls > 0 ? mono_ns() : 0;
    if (started != 0 && started < pool->solo_until) {
        fn(0, count, 0, ctx); /* the caller's own FP environment: nothing to apply */
        return;
    }
    if (started == 0) started = mono_ns();
    col_pool_job *job = &pool->job;
    unsigned e = atomic_load_explicit(&pool->epoch, memory_order_relaxed) + 1;
    /* Close the previous epoch before touching the description (see col_pool_job). */
    atomic_store_explicit(&job->cursor, (uint64_t)e << 32 | (uint32_t)INT32_MAX, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&job->fn, fn, memory_order_relaxed);
    atomic_store_explicit(&job->ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&job->count, count, memory_order_relaxed);
    atomic_store_explicit(&job->block, block, memory_order_relaxed);
    fenv_t env;
    unsigned envw[COL_POOL_FENV_WORDS] = {0};
    fegetenv(&env);
    memcpy(envw, &env, sizeof env);
    for (size_t k = 0; k < COL_POOL_FENV_WORDS; k++) atomic_store_explicit(&job->env[k], envw[k], memory_order_relaxed);
    atomic_store_explicit(&job->done, 0, memory_order_relaxed);
    atomic_store_explicit(&job->cursor, (uint64_t)e << 32, memory_order_release);
    atomic_store(&pool->epoch, e);
    wake_sleepers(pool);
    run_pool_job(pool, e, 0);
    /* Every block is claimed: wait only for those a worker is running. A worker that
     * shares this core cannot finish while we poll, so after a short while yield. */
    if (atomic_load_explicit(&job->done, memory_order_acquire) == count) return;
    uint64_t waited = mono_ns();
    unsigned polls = 0;
    while (atomic_load_explicit(&job->done, memory_order_acquire) != count) {
        if (++polls < COL_POOL_WAIT_POLLS)
            cpu_relax();
        else
            sched_yield();
    }
    uint64_t now = mono_ns();
    if (now - waited > COL_POOL_STALL_NS && now - waited > waited - started) note_stall(pool, now);
}

/* ---- description ---- */

typedef struct text_out {
    char *buf;
    size_t size, len;
} text_out;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void out_printf(text_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = o->len < o->size ? o->buf + o->len : NULL;
    int k = vsnprintf(dst, dst != NULL ? o->size - o->len : 0, fmt, ap);
    va_end(ap);
    if (k > 0) o->len += (size_t)k;
}

static void describe_obj(text_out *o, hwloc_obj_t obj, int depth)
{
    char type[64], attr[256], set[128];
    hwloc_obj_type_snprintf(type, sizeof type, obj, 0);
    attr[0] = '\0';
    hwloc_obj_attr_snprintf(attr, sizeof attr, obj, ", ", 0);
    out_printf(o, "%*s%s L#%u", 2 * depth, "", type, obj->logical_index);
    if (obj->type == HWLOC_OBJ_PU || obj->type == HWLOC_OBJ_NUMANODE) out_printf(o, " P#%u", obj->os_index);
    if (attr[0] != '\0') out_printf(o, " (%s)", attr);
    if (obj->type == HWLOC_OBJ_CORE && obj->cpuset != NULL) {
        hwloc_bitmap_list_snprintf(set, sizeof set, obj->cpuset);
        out_printf(o, " cpus %s", set);
    }
    out_printf(o, "\n");
    for (hwloc_obj_t c = obj->memory_first_child; c != NULL; c = c->next_sibling) describe_obj(o, c, depth + 1);
    for (hwloc_obj_t c = obj->first_child; c != NULL; c = c->next_sibling) describe_obj(o, c, depth + 1);
}

int col_thread_pool_describe_topology(char *buf, size_t size, int workers)
{
    hwloc_topology_t t = load_topology();
    if (t == NULL) return -1;
    text_out o = {buf, size, 0};
    if (size > 0) buf[0] = '\0';
    out_printf(&o, "hwloc %s topology: %d packages, %d cores, %d processing units\n", HWLOC_VERSION,
               hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE), hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
               hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU));
    describe_obj(&o, hwloc_get_root_obj(t), 0);
    workers = workers > 0 ? clamp_workers(workers) : col_thread_pool_default_workers();
    out_printf(&o, "pool of %d workers, COL_PIN_CORES: worker 0 = the calling thread (never bound)\n", workers);
    hwloc_obj_type_t type = pin_type(t);
    int n = hwloc_get_nbobjs_by_type(t, type);
    for (int k = 1; k < workers && n > 0; k++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(t, type, (unsigned)(k % n));
        char set[128] = "";
        if (obj != NULL && obj->cpuset != NULL) hwloc_bitmap_list_snprintf(set, sizeof set, obj->cpuset);
        out_printf(&o, "  worker %d -> %s L#%d (cpus %s)\n", k, hwloc_obj_type_string(type), k % n, set);
    }
    hwloc_topology_destroy(t);
    return o.len > (size_t)0x7fffffff ? 0x7fffffff : (int)o.len;
}
