"""async/await coroutines driven by a hand-written event loop: tasks sleeping on a virtual
clock, awaiting futures, and a bounded producer/consumer channel.

No asyncio: the loop below resumes coroutines with send() and keeps a heap of
timers.  Producers send known sequences, so the consumers' totals, the number
of messages and the final virtual time are all known in advance.
"""

import heapq

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

PRODUCERS = 8
MESSAGES_PER_SCALE = 2_800  # per producer


class Sleep:
    """Awaitable that suspends the current task for a number of virtual ticks."""

    def __init__(self, ticks):
        self.ticks = ticks

    def __await__(self):
        yield ("sleep", self.ticks)


class Future:
    def __init__(self):
        self.done = False
        self.value = None
        self.waiters = []

    def set_result(self, value):
        self.done = True
        self.value = value
        for waiter in self.waiters:
            waiter.loop.ready.append(waiter)
        self.waiters.clear()

    def __await__(self):
        if not self.done:
            yield ("wait", self)
        return self.value


class Task:
    def __init__(self, loop, coroutine):
        self.loop = loop
        self.coroutine = coroutine
        self.result = Future()


class Loop:
    def __init__(self):
        self.now = 0
        self.ready = []
        self.timers = []
        self.sequence = 0
        self.current = None

    def spawn(self, coroutine):
        task = Task(self, coroutine)
        self.ready.append(task)
        return task

    def run(self):
        while self.ready or self.timers:
            if not self.ready:
                when, _, task = heapq.heappop(self.timers)
                self.now = when
                self.ready.append(task)
            batch, self.ready = self.ready, []
            for task in batch:
                self.step(task)

    def step(self, task):
        self.current = task
        try:
            request = task.coroutine.send(None)
        except StopIteration as stop:
            task.result.set_result(stop.value)
            return
        kind, argument = request
        if kind == "sleep":
            self.sequence += 1
            heapq.heappush(self.timers, (self.now + argument, self.sequence, task))
        else:
            argument.waiters.append(task)


class Channel:
    """Bounded FIFO whose put/get suspend when full/empty."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.items = []
        self.getters = []
        self.putters = []

    async def put(self, item):
        while len(self.items) >= self.capacity:
            space = Future()
            self.putters.append(space)
            await space
        self.items.append(item)
        if self.getters:
            self.getters.pop(0).set_result(None)

    async def get(self):
        while not self.items:
            arrival = Future()
            self.getters.append(arrival)
            await arrival
        item = self.items.pop(0)
        if self.putters:
            self.putters.pop(0).set_result(None)
        return item


async def producer(channel, ident, count):
    for i in range(count):
        await channel.put(ident * 1_000_000 + i)
        if i % 16 == ident % 16:
            await Sleep(1 + ident % 3)
    await channel.put(None)


async def consumer(channel, producers):
    finished = 0
    total = 0
    received = 0
    while finished < producers:
        item = await channel.get()
        if item is None:
            finished += 1
        else:
            total += item
            received += 1
            if received % 50 == 0:
                await Sleep(2)
    return total, received


async def main(loop, messages):
    channel = Channel(capacity=4)
    for ident in range(PRODUCERS):
        loop.spawn(producer(channel, ident, messages))
    summary = loop.spawn(consumer(channel, PRODUCERS))
    total, received = await summary.result
    return total, received, loop.now


def run(scale):
    loop = Loop()
    top = loop.spawn(main(loop, MESSAGES_PER_SCALE * scale))
    loop.run()
    return top.result.value


def check(result, scale):
    total, received, finish_time = result
    messages = MESSAGES_PER_SCALE * scale
    expected_total = sum(ident * 1_000_000 * messages + messages * (messages - 1) // 2
                         for ident in range(PRODUCERS))
    assert received == PRODUCERS * messages, received
    assert total == expected_total, (total, expected_total)
    # The clock only moves while some task sleeps, so it stops somewhere between the
    # consumer's own sleeps (which run one after another) and everybody's sleeps added up.
    consumer_sleep = 2 * (received // 50)
    producer_sleep = sum(1 + ident % 3 for ident in range(PRODUCERS)
                         for i in range(messages) if i % 16 == ident % 16)
    assert consumer_sleep <= finish_time <= consumer_sleep + producer_sleep, finish_time
