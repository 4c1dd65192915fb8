"""Method calls: bound methods, inherited and overridden methods, super(), classmethods,
staticmethods, operator dunders, and bound methods stored in variables.

A small bank processes a deterministic stream of transactions on a class
hierarchy of accounts.  The check replays the stream on plain dictionaries.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

TRANSACTIONS_PER_SCALE = 26_000
ACCOUNTS = 16


class Money:
    __slots__ = ("cents",)

    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def __sub__(self, other):
        return Money(self.cents - other.cents)

    def __lt__(self, other):
        return self.cents < other.cents


class Account:
    def __init__(self, balance):
        self.balance = Money(balance)
        self.operations = 0

    def fee(self):
        return Money(2)

    def deposit(self, amount):
        self.balance = self.balance + Money(amount)
        self.operations += 1

    def withdraw(self, amount):
        charge = Money(amount) + self.fee()
        if self.balance < charge:
            return False
        self.balance = self.balance - charge
        self.operations += 1
        return True


class Savings(Account):
    def __init__(self, balance, bonus_divisor):
        super().__init__(balance)
        self.bonus_divisor = bonus_divisor

    @classmethod
    def standard(cls, balance):
        return cls(balance, 50)

    @staticmethod
    def is_large(amount):
        return amount > 900

    def fee(self):
        return Money(0)

    def deposit(self, amount):
        if self.is_large(amount):
            amount += amount // self.bonus_divisor
        super().deposit(amount)


def transactions(count):
    """(account index, kind, amount) triples from a Lehmer generator."""
    state = 12345
    stream = []
    for _ in range(count):
        state = state * 48271 % 2147483647
        stream.append((state % ACCOUNTS, (state >> 8) % 3, (state >> 12) % 1000))
    return stream


def run(scale):
    accounts = [Savings.standard(500) if i % 2 else Account(500) for i in range(ACCOUNTS)]
    refused = 0
    for index, kind, amount in transactions(TRANSACTIONS_PER_SCALE * scale):
        account = accounts[index]
        if kind == 0:
            account.deposit(amount)
        else:
            withdraw = account.withdraw
            if not withdraw(amount):
                refused += 1
    return [(a.balance.cents, a.operations) for a in accounts], refused


def check(result, scale):
    balances = [500] * ACCOUNTS
    operations = [0] * ACCOUNTS
    refused = 0
    for index, kind, amount in transactions(TRANSACTIONS_PER_SCALE * scale):
        savings = index % 2 == 1
        if kind == 0:
            if savings and amount > 900:
                amount += amount // 50
            balances[index] += amount
            operations[index] += 1
        else:
            charge = amount + (0 if savings else 2)
            if balances[index] < charge:
                refused += 1
            else:
                balances[index] -= charge
                operations[index] += 1
    assert result == (list(zip(balances, operations)), refused)
