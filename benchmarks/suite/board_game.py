"""Board-game search: Connect Four with depth-limited negamax and alpha-beta pruning,
center-first move ordering and a window-counting evaluation (list indexing, tuple
iteration, recursion, int comparisons).

Alpha-beta with a full window must return exactly the minimax value, so the
check re-searches some of the positions with plain negamax (no pruning) and
compares; it also confirms that the chosen moves are legal.
"""

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

ROWS = 6
COLUMNS = 7
SEARCH_DEPTH = 5
ORDER = (3, 2, 4, 1, 5, 0, 6)
WIN = 1_000_000


def make_windows():
    """Every line of four cells, as tuples of flat board indices (row * COLUMNS + column)."""
    windows = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLUMNS for rr, cc in cells):
                    windows.append(tuple(rr * COLUMNS + cc for rr, cc in cells))
    return windows


WINDOWS = make_windows()
WINDOWS_THROUGH = [[w for w in WINDOWS if cell in w] for cell in range(ROWS * COLUMNS)]
WEIGHTS = (0, 1, 8, 64, 0)


class Board:
    def __init__(self):
        self.cells = [0] * (ROWS * COLUMNS)
        self.heights = [0] * COLUMNS
        self.moves = 0

    def can_play(self, column):
        return self.heights[column] < ROWS

    def play(self, column, player):
        cell = self.heights[column] * COLUMNS + column
        self.cells[cell] = player
        self.heights[column] += 1
        self.moves += 1
        return cell

    def undo(self, column):
        self.heights[column] -= 1
        self.cells[self.heights[column] * COLUMNS + column] = 0
        self.moves -= 1

    def wins(self, cell, player):
        cells = self.cells
        for a, b, c, d in WINDOWS_THROUGH[cell]:
            if cells[a] == player and cells[b] == player and cells[c] == player and cells[d] == player:
                return True
        return False

    def evaluate(self, player):
        """Heuristic score from `player`'s point of view: open lines weighted by length."""
        cells = self.cells
        score = 0
        for window in WINDOWS:
            mine = theirs = 0
            for cell in window:
                value = cells[cell]
                if value == player:
                    mine += 1
                elif value:
                    theirs += 1
            if not theirs:
                score += WEIGHTS[mine]
            elif not mine:
                score -= WEIGHTS[theirs]
        return score


def alphabeta(board, depth, alpha, beta, player):
    if depth == 0 or board.moves == ROWS * COLUMNS:
        return board.evaluate(player)
    best = -WIN * 10
    for column in ORDER:
        if not board.can_play(column):
            continue
        cell = board.play(column, player)
        if board.wins(cell, player):
            score = WIN + depth
        else:
            score = -alphabeta(board, depth - 1, -beta, -alpha, -player)
        board.undo(column)
        if score > best:
            best = score
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


def negamax(board, depth, player):
    """Plain minimax in negamax form, without pruning: the reference for the check."""
    if depth == 0 or board.moves == ROWS * COLUMNS:
        return board.evaluate(player)
    best = -WIN * 10
    for column in range(COLUMNS):
        if board.can_play(column):
            cell = board.play(column, player)
            score = WIN + depth if board.wins(cell, player) else -negamax(board, depth - 1, -player)
            board.undo(column)
            best = max(best, score)
    return best


def opening(index):
    """A deterministic position reached by pseudo-random moves that end no game."""
    board = Board()
    state = 1000 + index
    player = 1
    for _ in range(4 + index % 7):
        state = state * 48271 % 2147483647
        column = state % COLUMNS
        if board.can_play(column):
            cell = board.play(column, player)
            if board.wins(cell, player):
                board.undo(column)
                continue
            player = -player
    return board, player


def best_move(board, player, depth):
    best_score = -WIN * 10
    best_column = None
    for column in ORDER:
        if board.can_play(column):
            cell = board.play(column, player)
            if board.wins(cell, player):
                score = WIN + depth
            else:
                score = -alphabeta(board, depth - 1, -WIN * 10, WIN * 10, -player)
            board.undo(column)
            if score > best_score:
                best_score, best_column = score, column
    return best_score, best_column


def run(scale):
    results = []
    for index in range(scale):
        board, player = opening(index)
        results.append(best_move(board, player, SEARCH_DEPTH))
    return results


def check(result, scale):
    assert len(result) == scale
    for index, (score, column) in enumerate(result):
        board, player = opening(index)
        assert column is not None and board.can_play(column), "illegal move chosen"
        if index < 3:
            # With a full window, alpha-beta must find exactly the minimax value.  Plain
            # minimax is too slow at the benchmark's depth, so compare two plies shallower.
            depth = SEARCH_DEPTH - 2
            window = WIN * 10
            assert alphabeta(board, depth, -window, window, player) == negamax(board, depth, player)
        # The reported score must be what the chosen move achieves.
        cell = board.play(column, player)
        if board.wins(cell, player):
            achieved = WIN + SEARCH_DEPTH
        else:
            achieved = -alphabeta(board, SEARCH_DEPTH - 1, -WIN * 10, WIN * 10, -player)
        assert achieved == score, (index, achieved, score)
