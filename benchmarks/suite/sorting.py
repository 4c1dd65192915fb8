"""Pure-Python sorting algorithms: merge sort, quicksort, heapsort and insertion sort on
lists of integers, tuples and strings (list indexing, slicing, comparisons, swaps).

Every output is compared with the builtin sorted().
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

ITEMS_PER_SCALE = 3_200


def merge_sort(items):
    if len(items) <= 1:
        return items
    middle = len(items) // 2
    left = merge_sort(items[:middle])
    right = merge_sort(items[middle:])
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:
            merged.append(right[j])
            j += 1
        else:
            merged.append(left[i])
            i += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged


def quicksort(items, low=0, high=None):
    if high is None:
        high = len(items) - 1
    while low < high:
        pivot = items[(low + high) // 2]
        i, j = low, high
        while i <= j:
            while items[i] < pivot:
                i += 1
            while pivot < items[j]:
                j -= 1
            if i <= j:
                items[i], items[j] = items[j], items[i]
                i += 1
                j -= 1
        if j - low < high - i:  # recurse into the smaller part, loop on the larger
            quicksort(items, low, j)
            low = i
        else:
            quicksort(items, i, high)
            high = j
    return items


def sift_down(heap, start, end):
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and heap[child] < heap[child + 1]:
            child += 1
        if heap[root] < heap[child]:
            heap[root], heap[child] = heap[child], heap[root]
            root = child
        else:
            return


def heapsort(items):
    end = len(items) - 1
    for start in range((end - 1) // 2, -1, -1):
        sift_down(items, start, end)
    while end > 0:
        items[0], items[end] = items[end], items[0]
        end -= 1
        sift_down(items, 0, end)
    return items


def insertion_sort(items):
    for i in range(1, len(items)):
        value = items[i]
        j = i - 1
        while j >= 0 and value < items[j]:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = value
    return items


def make_data(count):
    state = 2024
    numbers = []
    for _ in range(count):
        state = state * 48271 % 2147483647
        numbers.append(state % 100_000)
    records = [(n % 97, "k%d" % (n % 1000), n) for n in numbers]
    words = ["%x" % (n * 2654435761 % 1_000_003) for n in numbers]
    return numbers, records, words


def run(scale):
    numbers, records, words = make_data(ITEMS_PER_SCALE * scale)
    return (
        merge_sort(numbers),
        quicksort(records[:]),
        heapsort(words[:]),
        insertion_sort(numbers[:300]),
        merge_sort(records),
    )


def check(result, scale):
    numbers, records, words = make_data(ITEMS_PER_SCALE * scale)
    by_merge, by_quick, by_heap, by_insertion, records_by_merge = result
    assert by_merge == sorted(numbers)
    assert by_quick == sorted(records)
    assert by_heap == sorted(words)
    assert by_insertion == sorted(numbers[:300])
    assert records_by_merge == sorted(records)
