"""Operating-system scheduler simulation: a multi-level feedback queue with per-level time
slices, demotion, periodic priority boosts, and processes alternating CPU and disk bursts
on a single FIFO disk, simulated tick by tick.

The check audits the recorded CPU and disk timelines: no overlaps, every burst
served exactly, bursts of a process in order, and the CPU idle only while every
unfinished process is waiting for or using the disk.
"""

from collections import deque

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

PROCESSES_PER_SCALE = 1_400
QUANTA = (2, 4, 8)
BOOST_INTERVAL = 60


class Process:
    def __init__(self, pid, arrival, bursts):
        self.pid = pid
        self.arrival = arrival
        self.bursts = bursts      # CPU, disk, CPU, disk, ..., CPU
        self.phase = 0
        self.remaining = bursts[0]
        self.level = 0
        self.finish = None


class FeedbackQueues:
    def __init__(self, levels):
        self.queues = [deque() for _ in range(levels)]

    def add(self, process):
        self.queues[process.level].append(process)

    def pick(self):
        for queue in self.queues:
            if queue:
                return queue.popleft()
        return None

    def boost(self):
        top = self.queues[0]
        for queue in self.queues[1:]:
            while queue:
                process = queue.popleft()
                process.level = 0
                top.append(process)


def make_processes(count):
    state = 4242
    processes = []
    arrival = 0
    for pid in range(count):
        state = state * 48271 % 2147483647
        arrival += state % 50
        phases = 3 + 2 * (state % 4)
        bursts = []
        for k in range(phases):
            state = state * 48271 % 2147483647
            bursts.append(1 + state % 20 if k % 2 == 0 else 2 + state % 12)
        processes.append(Process(pid, arrival, bursts))
    return processes


class Machine:
    def __init__(self, processes):
        self.pending = deque(processes)       # ordered by arrival
        self.ready = FeedbackQueues(len(QUANTA))
        self.disk_queue = deque()
        self.time = 0
        self.running = None
        self.quantum_left = 0
        self.slice_start = 0
        self.disk_job = None
        self.disk_left = 0
        self.disk_start = 0
        self.cpu_slices = []
        self.disk_slices = []
        self.switches = 0
        self.unfinished = len(processes)

    def admit_arrivals(self):
        while self.pending and self.pending[0].arrival <= self.time:
            self.ready.add(self.pending.popleft())

    def dispatch(self):
        process = self.ready.pick()
        if process is not None:
            self.running = process
            self.quantum_left = QUANTA[process.level]
            self.slice_start = self.time
            self.switches += 1

    def end_slice(self):
        process = self.running
        self.cpu_slices.append((self.slice_start, self.time, process.pid))
        self.running = None
        return process

    def tick(self):
        self.admit_arrivals()
        if self.time % BOOST_INTERVAL == 0:
            self.ready.boost()
        if self.running is None:
            self.dispatch()
        if self.disk_job is None and self.disk_queue:
            self.disk_job = self.disk_queue.popleft()
            self.disk_left = self.disk_job.remaining
            self.disk_start = self.time

        if self.running is not None:
            self.running.remaining -= 1
            self.quantum_left -= 1
        if self.disk_job is not None:
            self.disk_left -= 1
        self.time += 1

        running = self.running
        if running is not None:
            if running.remaining == 0:
                self.end_slice()
                running.phase += 1
                if running.phase == len(running.bursts):
                    running.finish = self.time
                    self.unfinished -= 1
                else:
                    running.remaining = running.bursts[running.phase]
                    self.disk_queue.append(running)
            elif self.quantum_left == 0:
                self.end_slice()
                if running.level < len(QUANTA) - 1:
                    running.level += 1
                self.ready.add(running)
        job = self.disk_job
        if job is not None and self.disk_left == 0:
            self.disk_slices.append((self.disk_start, self.time, job.pid))
            job.phase += 1
            job.remaining = job.bursts[job.phase]
            self.ready.add(job)
            self.disk_job = None

    def simulate(self):
        while self.unfinished:
            self.tick()
        return self.time


def run(scale):
    processes = make_processes(PROCESSES_PER_SCALE * scale)
    machine = Machine(processes)
    makespan = machine.simulate()
    finishes = [p.finish for p in processes]
    return makespan, machine.cpu_slices, machine.disk_slices, finishes, machine.switches


def check(result, scale):
    makespan, cpu_slices, disk_slices, finishes, switches = result
    processes = make_processes(PROCESSES_PER_SCALE * scale)
    assert len(finishes) == len(processes), "wrong number of processes simulated"
    assert len(cpu_slices) == switches
    for timeline in (cpu_slices, disk_slices):
        for (_, end, _), (start, _, _) in zip(timeline, timeline[1:]):
            assert end <= start, "a resource ran two things at once"

    per_cpu = {p.pid: [] for p in processes}
    per_disk = {p.pid: [] for p in processes}
    for start, end, pid in cpu_slices:
        per_cpu[pid].append((start, end))
    for start, end, pid in disk_slices:
        per_disk[pid].append((start, end))

    blocked = {}   # pid -> intervals when the process waited for or used the disk
    for p in processes:
        cpu = per_cpu[p.pid]
        disk = per_disk[p.pid]
        assert cpu[0][0] >= p.arrival
        assert len(disk) == len(p.bursts) // 2
        blocked[p.pid] = []
        served = 0
        burst = 0
        previous_end = p.arrival
        for start, end in cpu:
            assert start >= previous_end, "process ran before its disk burst ended"
            served += end - start
            previous_end = end
            if served == p.bursts[burst]:
                if burst // 2 < len(disk):
                    disk_start, disk_end = disk[burst // 2]
                    assert disk_start >= end and disk_end - disk_start == p.bursts[burst + 1]
                    blocked[p.pid].append((end, disk_end))
                    previous_end = disk_end
                burst += 2
                served = 0
            assert burst >= len(p.bursts) or served < p.bursts[burst], "CPU burst overrun"
        assert burst == len(p.bursts) + 1 and served == 0, "bursts not fully served"
        assert finishes[p.pid] == cpu[-1][1]
    assert makespan == max(finishes)

    # Work conservation: count, tick by tick, the processes that have arrived, are not
    # finished, are not held by the disk and are not running (difference arrays).
    waiting = [0] * (makespan + 1)
    for p in processes:
        waiting[p.arrival] += 1
        waiting[finishes[p.pid]] -= 1
        for start, end in blocked[p.pid]:
            waiting[start] -= 1
            waiting[end] += 1
    running = [0] * (makespan + 1)
    for start, end, _ in cpu_slices:
        running[start] += 1
        running[end] -= 1
    ready = busy = 0
    for t in range(makespan):
        ready += waiting[t]
        busy += running[t]
        assert busy in (0, 1)
        assert busy or ready == 0, "CPU idle at tick %d while %d processes were ready" % (t, ready)
