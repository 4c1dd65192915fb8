"""Graph algorithms on adjacency lists: breadth-first search, Dijkstra's shortest paths
with a binary heap, Kruskal's minimum spanning tree with union-find, and Kahn's
topological sort.

Shortest-path distances are certified edge by edge (no edge can shorten a
distance and every reached vertex has a tight incoming edge), the spanning tree
weight is recomputed with Prim's algorithm, and the topological order is checked
against every edge.
"""

import heapq

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

VERTICES_PER_SCALE = 1_360
EDGES_PER_VERTEX = 4


def make_graph(vertices, seed):
    """Undirected weighted edges (u, v, w): a ring for connectivity plus random chords."""
    state = seed
    edges = []
    for u in range(vertices):
        state = state * 48271 % 2147483647
        edges.append((u, (u + 1) % vertices, 1 + state % 50))
        for _ in range(EDGES_PER_VERTEX - 1):
            state = state * 48271 % 2147483647
            v = state % vertices
            if v != u:
                edges.append((u, v, 1 + (state >> 7) % 100))
    return edges


def adjacency(vertices, edges):
    neighbours = [[] for _ in range(vertices)]
    for u, v, w in edges:
        neighbours[u].append((v, w))
        neighbours[v].append((u, w))
    return neighbours


def bfs(neighbours, source):
    distance = [-1] * len(neighbours)
    distance[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for u in frontier:
            for v, _ in neighbours[u]:
                if distance[v] < 0:
                    distance[v] = distance[u] + 1
                    following.append(v)
        frontier = following
    return distance


def dijkstra(neighbours, source):
    distance = [None] * len(neighbours)
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if distance[u] is not None:
            continue
        distance[u] = d
        for v, w in neighbours[u]:
            if distance[v] is None:
                heapq.heappush(heap, (d + w, v))
    return distance


class DisjointSets:
    def __init__(self, size):
        self.parent = list(range(size))
        self.rank = [0] * size

    def find(self, x):
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a == b:
            return False
        if self.rank[a] < self.rank[b]:
            a, b = b, a
        self.parent[b] = a
        if self.rank[a] == self.rank[b]:
            self.rank[a] += 1
        return True


def kruskal(vertices, edges):
    sets = DisjointSets(vertices)
    total = 0
    used = 0
    for u, v, w in sorted(edges, key=lambda edge: edge[2]):
        if sets.union(u, v):
            total += w
            used += 1
    return total, used


def topological_order(vertices, edges):
    """Kahn's algorithm on the DAG obtained by orienting every edge from the smaller label."""
    successors = [[] for _ in range(vertices)]
    incoming = [0] * vertices
    for u, v, _ in edges:
        a, b = (u, v) if (u * 7919) % vertices < (v * 7919) % vertices else (v, u)
        successors[a].append(b)
        incoming[b] += 1
    ready = [u for u in range(vertices) if incoming[u] == 0]
    order = []
    while ready:
        u = ready.pop()
        order.append(u)
        for v in successors[u]:
            incoming[v] -= 1
            if incoming[v] == 0:
                ready.append(v)
    return order


def run(scale):
    vertices = VERTICES_PER_SCALE * scale
    edges = make_graph(vertices, 17)
    neighbours = adjacency(vertices, edges)
    hops = [bfs(neighbours, source) for source in (0, vertices // 2)]
    distances = [dijkstra(neighbours, source) for source in (0, vertices // 3, vertices - 1)]
    tree = kruskal(vertices, edges)
    order = topological_order(vertices, edges)
    return edges, hops, distances, tree, order


def certify_distances(vertices, edges, source, distance):
    assert distance[source] == 0
    tight = [False] * vertices
    tight[source] = True
    for u, v, w in edges:
        for a, b in ((u, v), (v, u)):
            assert distance[b] <= distance[a] + w, "an edge shortens a path"
            if distance[b] == distance[a] + w:
                tight[b] = True
    assert all(tight), "a distance is not achieved by any path"


def prim(vertices, edges):
    neighbours = adjacency(vertices, edges)
    seen = [False] * vertices
    heap = [(0, 0)]
    total = 0
    while heap:
        w, u = heapq.heappop(heap)
        if seen[u]:
            continue
        seen[u] = True
        total += w
        for v, weight in neighbours[u]:
            if not seen[v]:
                heapq.heappush(heap, (weight, v))
    return total


def check(result, scale):
    edges, hops, distances, tree, order = result
    vertices = VERTICES_PER_SCALE * scale
    assert edges == make_graph(vertices, 17)
    unit_edges = [(u, v, 1) for u, v, _ in edges]
    for source, hop in zip((0, vertices // 2), hops):
        certify_distances(vertices, unit_edges, source, hop)
    for source, distance in zip((0, vertices // 3, vertices - 1), distances):
        certify_distances(vertices, edges, source, distance)
    assert tree == (prim(vertices, edges), vertices - 1), "spanning tree weight differs from Prim's"
    assert sorted(order) == list(range(vertices)), "topological order is not a permutation"
    position = {u: i for i, u in enumerate(order)}
    for u, v, _ in edges:
        a, b = (u, v) if (u * 7919) % vertices < (v * 7919) % vertices else (v, u)
        assert position[a] < position[b], "edge goes backwards in the topological order"
