"""Where jobs run: threads of this process (`LocalExecutor`) or the workers of a Ray cluster
(`RayExecutor`). Both run `sprouts_job`, the Rust solver through the `sprouts` module, which
releases the interpreter lock while it searches."""

import concurrent.futures
import os
import time

import sprouts


def sprouts_job(image, text, heap, budget, threads=1):
    """One job: the couple `text + *heap` searched with at most `budget` nodes on a fresh solver
    loaded from the database image `image`; returns its verdict (`"W"`, `"L"` or `None`), the
    nodes it expanded, the facts it proved beyond the image (a database image), the worker's
    process id and the seconds it took."""
    start = time.monotonic()
    verdict, nodes, facts = sprouts.solve_job(image, text, heap, nodes=budget, threads=threads)
    return {
        "verdict": verdict,
        "nodes": nodes,
        "facts": bytes(facts),
        "pid": os.getpid(),
        "seconds": time.monotonic() - start,
    }


class LocalExecutor:
    """Jobs on `workers` threads of this process (no cluster): for a single machine and for
    testing the driver without Ray."""

    def __init__(self, workers=1, threads=1):
        self.slots = workers
        self.threads = threads
        self.image = None
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)

    def share(self, image):
        self.image = image

    def submit(self, text, heap, budget):
        return self.pool.submit(sprouts_job, self.image, text, heap, budget, self.threads)

    def wait(self, handles):
        done, _ = concurrent.futures.wait(handles, return_when=concurrent.futures.FIRST_COMPLETED)
        handle = next(iter(done))
        return handle, handle.result()

    def cancel(self, handle):
        handle.cancel()

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayExecutor:
    """Jobs as Ray tasks on a cluster. `address` is the cluster's (`HOST:PORT`, or `"auto"` on a
    node of the cluster; `None` starts a Ray instance on this machine). A job whose worker process
    dies is run again (up to `max_retries` times); the database image is put in the object store
    once per share and read by every job sent after."""

    def __init__(self, address=None, slots=None, threads=1, max_retries=5):
        import ray

        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False, logging_level="WARNING")
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = slots if slots is not None else max(1, cpus // threads)
        self.threads = threads
        self.image = None
        self.remote = ray.remote(num_cpus=threads, max_retries=max_retries)(sprouts_job)

    def share(self, image):
        self.image = self.ray.put(image)

    def submit(self, text, heap, budget):
        return self.remote.remote(self.image, text, heap, budget, self.threads)

    def wait(self, handles):
        ready, _ = self.ray.wait(handles, num_returns=1)
        return ready[0], self.ray.get(ready[0])

    def cancel(self, handle):
        self.ray.cancel(handle)

    def close(self):
        self.ray.shutdown()
