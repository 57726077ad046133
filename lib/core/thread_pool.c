/* SPDX-License-Identifier: MIT */
/* The world's worker threads (thread_pool.h): range jobs claimed with atomics, a
 * spin-then-sleep hand-off between jobs, and hwloc pinning. The only file that includes
 * <hwloc.h>. */
#include "lib/core/thread_pool.h"

#include <hwloc.h>
#include <pthread.h>
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
    pthread_cond_t done;     /* pending reached 0, or a thread became ready */
    int ready;               /* threads past their binding (under mu) */
    atomic_int bound;        /* threads whose binding succeeded */

    /* The hand-off: the caller writes job, sets pending, then bumps epoch (release);
     * a worker that sees a new epoch (acquire) reads job. A NULL job means stop. The
     * caller never posts again before pending is back to 0, so no epoch is missed. */
    col_range_job *job;
    atomic_uint epoch;
    atomic_int pending;      /* pool threads that have not finished the current job */
};

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A polling budget: false once COL_POOL_SPIN_NS have passed since its first clock read. */
typedef struct spin_budget {
    unsigned polls;
    uint64_t start;
} spin_budget;

static bool spin_on(spin_budget *b)
{
    cpu_relax();
    if (++b->polls % COL_POOL_SPIN_CHECK != 0) return true;
    uint64_t t = mono_ns();
    if (b->start == 0) b->start = t;
    return t - b->start < COL_POOL_SPIN_NS;
}

static unsigned wait_epoch(col_thread_pool *pool, unsigned seen)
{
    unsigned e;
    spin_budget b = {0, 0};
    do {
        e = atomic_load_explicit(&pool->epoch, memory_order_acquire);
        if (e != seen) return e;
    } while (spin_on(&b));
    pthread_mutex_lock(&pool->mu);
    while ((e = atomic_load_explicit(&pool->epoch, memory_order_acquire)) == seen) pthread_cond_wait(&pool->wake, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    return e;
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
        col_range_job *job = pool->job;
        if (job == NULL) break;
        col_range_job_run(job, self->index);
        if (atomic_fetch_sub_explicit(&pool->pending, 1, memory_order_acq_rel) == 1) {
            /* Under the lock, so a caller between its check and its wait cannot miss it. */
            pthread_mutex_lock(&pool->mu);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->mu);
        }
    }
    return NULL;
}

/* Posts job (NULL: stop) to every pool thread. */
static void post(col_thread_pool *pool, col_range_job *job)
{
    pool->job = job;
    atomic_store_explicit(&pool->pending, pool->started, memory_order_relaxed);
    pthread_mutex_lock(&pool->mu);
    atomic_fetch_add_explicit(&pool->epoch, 1, memory_order_release);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mu);
}

static void join_all(col_thread_pool *pool)
{
    if (pool->started > 0) {
        post(pool, NULL);
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
    atomic_init(&pool->pending, 0);
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

int col_thread_pool_bound_count(const col_thread_pool *pool)
{
    return pool != NULL ? atomic_load_explicit(&((col_thread_pool *)pool)->bound, memory_order_relaxed) : 0;
}

void col_thread_pool_run(col_thread_pool *pool, col_range_job *job)
{
    post(pool, job);
    col_range_job_run(job, 0);
    spin_budget b = {0, 0};
    do {
        if (atomic_load_explicit(&pool->pending, memory_order_acquire) == 0) return;
    } while (spin_on(&b));
    pthread_mutex_lock(&pool->mu);
    while (atomic_load_explicit(&pool->pending, memory_order_acquire) != 0) pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
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
